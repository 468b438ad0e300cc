import { BrowserRouter } from 'react-router';

import { Toaster } from '../components/ui';
import { launch } from '../lib/telegram';
import { DemoBadge } from './demo-badge';
import { AppRoutes } from './routes';
import { useThemeSync } from './shell-effects';

/** The mini app inside Telegram (or the demo mock): router, toasts, demo badge. */
export function App() {
  useThemeSync();
  return (
    <>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Toaster />
      {launch.demo && <DemoBadge />}
    </>
  );
}

/** Theme only, for screens rendered without the app (not in Telegram, start-up failure). */
export function Bare({ children }: { children: React.ReactNode }) {
  useThemeSync();
  return <>{children}</>;
}
