import { BrowserRouter } from '../lib/router';

import { Toaster } from '../components/ui';
import { launch } from '../lib/launch';
import { DemoFrame } from './demo-frame';
import { AppRoutes } from './routes';
import { useThemeSync } from './shell-effects';

/** The mini app inside Telegram (or the demo mock): router, toasts, the demo's Telegram frame. */
export function App() {
  useThemeSync();
  return (
    <>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Toaster />
      {launch.demo && <DemoFrame />}
    </>
  );
}

/** Theme only, for screens rendered without the app (not in Telegram, start-up failure). */
export function Bare({ children }: { children: React.ReactNode }) {
  useThemeSync();
  return <>{children}</>;
}
