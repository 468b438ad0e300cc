import { useDeferredValue, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from '../lib/router';

import { Button, IconAlert, Splash, StatusScreen } from '../components/ui';
import { useGates } from '../features/gates';
import { useSession } from '../features/session';
import { useT } from '../i18n';
import { MaintenancePage } from '../pages/maintenance';
import { ReopenPage } from '../pages/reopen';
import { useBoot } from './boot';
import { decideGate } from './navigation';
import { useNativeBackButton, useScrollReset } from './shell-effects';

/**
 * The root route: applies the gates in the spec's order (maintenance → /login → agreement →
 * /onboarding → app), the start-up deep link, scroll reset and the native back button.
 */
export function Root() {
  const t = useT();
  useScrollReset();
  useNativeBackButton();
  const { pathname } = useLocation();
  const maintenance = useGates((s) => s.maintenance.isMaintenance);
  const devGate = useGates((s) => s.config?.devGate === true);
  const isAuthenticated = useGates((s) => s.isAuthenticated);
  const agreement = useGates((s) => s.agreement);
  const pendingPath = useGates((s) => s.pendingPath);
  const expired = useSession((s) => s.expired);
  const token = useSession((s) => s.token);
  const phase = useBoot((s) => s.phase);

  // The remembered deep link has been reached: forget it.
  useEffect(() => {
    if (pendingPath && pathname === pendingPath && agreement === 'agreed') useGates.getState().setPendingPath(null);
  }, [pendingPath, pathname, agreement]);

  const decision = decideGate({ pathname, devGate, isAuthenticated, agreement, pendingPath });
  // Onboarding needs no session to be drawn (its start button waits for the agreement check).
  const waiting = decision.kind === 'wait' || (pathname !== '/login' && pathname !== '/onboarding' && phase === 'starting' && !token);
  // Leaving the splash for a screen: the store update that allows it renders the splash again
  // at once (cheap), and the screen at transition priority, in slices (see main.tsx).
  const shown = useDeferredValue(!waiting && decision.kind === 'render', false);

  if (maintenance) return <MaintenancePage />;
  if (expired) return <ReopenPage />;
  if (decision.kind === 'redirect') {
    return (
      <>
        <Splash />
        <Navigate to={decision.to} replace />
      </>
    );
  }
  if (phase === 'failed' && pathname !== '/login') {
    return (
      <StatusScreen testId="sign-in-failed" icon={<IconAlert size={44} />} title={t('app.errorTitle')} text={t('app.signInFailed')}>
        <Button block size="lg" onClick={() => window.location.reload()}>
          {t('app.reload')}
        </Button>
      </StatusScreen>
    );
  }
  if (waiting || !shown) return <Splash />;
  return <Outlet />;
}
