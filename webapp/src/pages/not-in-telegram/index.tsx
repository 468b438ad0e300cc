import { Button, IconTelegram, StatusScreen } from '../../components/ui';
import { useT } from '../../i18n';

/** Outside Telegram (platform web/unknown, or no launch parameters), only this notice shows. */
export function NotInTelegramPage({ botUsername }: { botUsername?: string | null }) {
  const t = useT();
  return (
    <StatusScreen
      testId="not-in-telegram"
      icon={<IconTelegram size={44} />}
      title={t('app.notInTelegramTitle')}
      text={t('app.notInTelegramText')}
    >
      {botUsername && (
        <Button block size="lg" onClick={() => window.location.assign(`https://t.me/${botUsername}`)}>
          {t('app.openBot', { bot: botUsername })}
        </Button>
      )}
    </StatusScreen>
  );
}
