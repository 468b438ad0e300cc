import { IconAlert, StatusScreen } from '../../components/ui';
import { useT } from '../../i18n';

/** The init data is too old to sign in again (`init_data_expired`): ask to reopen, never loop. */
export function ReopenPage() {
  const t = useT();
  return (
    <StatusScreen testId="reopen" icon={<IconAlert size={44} />} title={t('app.expiredTitle')} text={t('app.expiredText')} />
  );
}
