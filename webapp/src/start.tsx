/**
 * The app's start (loaded by main.tsx once the splash is painted): environment, Telegram,
 * session, first screen.
 */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App, Bare } from './app/app';
import { boot } from './app/boot';
import { prefetchTabs, preloadFirstScreen } from './app/routes';
import { Button, IconAlert, StatusScreen } from './components/ui';
import { useGates } from './features/gates';
import { setInitDataSource, useSession } from './features/session';
import { useSettings } from './features/settings';
import { t } from './i18n';
import { setDictionarySource } from './i18n/dictionaries';
import { nextTask } from './lib/bridge-queue';
import { browserPrefersLight, demoClientTheme, languageReady } from './lib/settings';
import { onFirstScreenDrawn } from './lib/first-draw';
import { removeStaticSlide } from './lib/static-slide';
import { NotInTelegramPage } from './pages/not-in-telegram';
import { DevGateRequired } from './lib/demo-api';
import { browserLanguage } from './lib/launch';
import { detectEnvironment, getRawInitData, initTelegram, onColorSchemeChange, signalReady } from './lib/telegram';

// The start-up dictionaries, one chunk each (i18n/dictionaries.ts says why the imports are here).
setDictionarySource({ ru: () => import('./i18n/ru.json'), en: () => import('./i18n/en.json') });

const container = document.getElementById('root');
if (!container) throw new Error('#root missing');
// index.html's static splash stays up until the first screen replaces it: no render before.
const root = createRoot(container);

/**
 * The active language's dictionary, awaited before anything is drawn (public/first-slide.js
 * preloaded it). If it cannot load, the keys show: the network is gone and the start failure
 * screen follows.
 */
async function texts(): Promise<void> {
  try {
    await languageReady();
  } catch (e) {
    console.warn('dictionary failed to load', e);
  }
}

async function renderStartFailure(): Promise<void> {
  await texts();
  removeStaticSlide();
  root.render(
    <Bare>
      <StatusScreen testId="start-failed" icon={<IconAlert size={44} />} title={t('app.errorTitle')} text={t('errors.network_error')}>
        <Button block size="lg" onClick={() => window.location.reload()}>
          {t('app.reload')}
        </Button>
      </StatusScreen>
    </Bare>,
  );
}

async function start(): Promise<void> {
  const config = useGates
    .getState()
    .loadConfig()
    .catch((e: unknown) => {
      console.warn('config failed', e);
      return null;
    });
  // The demo's stand-in client reports the browser's colour scheme unless the player chose one.
  const settings = useSettings.getState();
  const demoTheme = demoClientTheme(settings.themeChosen ? settings.theme : null, browserPrefersLight());
  const detected = detectEnvironment(async () => (await config)?.demo === true, demoTheme);
  // The first screen's chunk (its script and style links) in a task of its own.
  await nextTask();
  preloadFirstScreen(useGates.getState().termsAccepted);
  let env;
  try {
    env = await detected;
  } catch (e) {
    if (e instanceof DevGateRequired) {
      // The demo's init data waits for the development gate: ask first, then start again.
      window.history.replaceState(window.history.state, '', '/login');
      // The gate is demo mode's first screen: in the browser's language (no Telegram yet).
      useSettings.getState().adoptTelegram({ languageCode: browserLanguage() });
      const [{ LoginPage }] = await Promise.all([import('./pages/login'), texts()]);
      removeStaticSlide();
      root.render(
        <Bare>
          <LoginPage onPassed={() => void start()} />
        </Bare>,
      );
      return;
    }
    console.error('demo bootstrap failed', e);
    await renderStartFailure();
    return;
  }
  if (!env.ok) {
    const cfg = await config;
    await texts();
    removeStaticSlide();
    root.render(
      <Bare>
        <NotInTelegramPage botUsername={cfg?.botUsername} />
      </Bare>,
    );
    return;
  }
  // The player's language is known now (boot adopts the rest of what Telegram says): its
  // dictionary loads while the SDK starts, and is awaited before the first render.
  useSettings.getState().adoptTelegram({ languageCode: env.info.languageCode });
  const dictionary = texts();
  await nextTask();
  initTelegram();
  onColorSchemeChange((colorScheme) => useSettings.getState().adoptTelegram({ colorScheme }));
  setInitDataSource(getRawInitData);
  // `web_app_ready` once the first screen (not the splash) has been painted.
  onFirstScreenDrawn(signalReady);
  if (!(await config)) {
    await renderStartFailure();
    return;
  }
  // Demo mode: the stand-in client follows the browser's scheme as it changes (a chosen theme wins).
  if ((await config)?.demo && typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: light)').addEventListener('change', (e) =>
      useSettings.getState().adoptTelegram({ colorScheme: e.matches ? 'light' : 'dark' }),
    );
  }
  await dictionary;
  await nextTask();
  // A transition: React renders the app in slices of a few milliseconds, yielding between
  // them, instead of one long task (a default update is rendered without yielding).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  await boot();
  prefetchTabs();
  // Spec section 7: cases, packages, referrals and items load at start, whatever screen opened.
  if (useSession.getState().token) {
    void import('./app/preload').then((m) => m.preloadStartData());
  }
  (window as { __fragboxBooted?: boolean }).__fragboxBooted = true;
}

void start();
