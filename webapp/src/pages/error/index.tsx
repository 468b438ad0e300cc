import { Button, IconAlert, StatusScreen } from '../../components/ui';
import { useT } from '../../i18n';

function isChunkError(e: unknown): boolean {
  const text = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /dynamically imported module|Importing a module script failed|ChunkLoadError|Loading chunk/i.test(text);
}

/** The generic application-error screen (rendering errors, failed route chunks). */
export function ErrorPage({ error }: { error?: unknown }) {
  const t = useT();
  return (
    <StatusScreen
      testId="error-screen"
      icon={<IconAlert size={44} />}
      title={t('app.errorTitle')}
      text={isChunkError(error) ? t('app.chunkErrorText') : t('app.errorText')}
    >
      <Button block size="lg" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </Button>
      <Button block variant="secondary" onClick={() => window.location.assign('/')}>
        {t('app.toHome')}
      </Button>
    </StatusScreen>
  );
}
