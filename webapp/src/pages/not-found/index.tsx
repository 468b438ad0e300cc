import { useEffect } from 'react';

import { Button, IconAlert, StatusScreen } from '../../components/ui';
import { useT } from '../../i18n';
import { useNavigate } from '../../lib/router';

/** How long an unknown link's notice stays before the app goes home on its own. */
export const NOT_FOUND_HOME_MS = 4000;

/**
 * Says that a link leads nowhere, then goes home (after `NOT_FOUND_HOME_MS`, or at once with
 * the button): a player who followed an old link learns why they landed on home.
 */
export function GoingHome({ title, text, testId }: { title: string; text: string; testId: string }) {
  const t = useT();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), NOT_FOUND_HOME_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <StatusScreen testId={testId} icon={<IconAlert size={44} />} title={title} text={text}>
      <Button block size="lg" onClick={() => navigate('/', { replace: true })} data-testid="go-home">
        {t('app.toHome')}
      </Button>
    </StatusScreen>
  );
}

/** Any path the app does not know. */
export function NotFoundPage() {
  const t = useT();
  return <GoingHome testId="page-not-found" title={t('app.notFoundTitle')} text={t('app.notFoundText')} />;
}
