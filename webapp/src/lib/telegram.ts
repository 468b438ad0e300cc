/**
 * Everything that talks to the Telegram client, through `@telegram-apps/sdk-react` only
 * (never `telegram-web-app.js` beside it: buttons stop firing).
 *
 * Bootstrap: read the launch parameters; outside Telegram render the notice; inside, `init()`,
 * then mount theme params, viewport and the main button and bind their CSS variables, one SDK
 * call per task (lib/bridge-queue.ts); the other components mount on first use, and
 * `web_app_ready` goes out once the first screen is painted (lib/first-draw.ts). In demo mode
 * (server `/config` says `demo: true`) the environment is mocked with the server's demo init
 * data (lib/demo-environment.ts); what the launch said lives in lib/launch.ts.
 */
import {
  backButton,
  bindThemeParamsCssVars,
  bindViewportCssVars,
  expandViewport,
  hapticFeedbackImpactOccurred,
  hapticFeedbackNotificationOccurred,
  hapticFeedbackSelectionChanged,
  init as initSdk,
  isThemeParamsDark,
  miniAppReady,
  mountBackButton,
  mountSwipeBehavior,
  mountThemeParamsSync,
  mountViewport,
  on,
  openLink as sdkOpenLink,
  postMessage as sdkPostMessage,
  type PostEventFn,
  openTelegramLink as sdkOpenTelegramLink,
  requestFullscreen,
  retrieveLaunchParams,
  retrieveRawInitData,
  supports,
  targetOrigin,
} from '@telegram-apps/sdk-react';

import { bridgeCall, bridgeLater, nextTask } from './bridge-queue';
import { fetchDemoInitData } from './demo-api';
import { demoClientFollowsTheme, demoStartParam, keepDemoStartParam, startDemoEnvironment } from './demo-environment';
import { browserLanguage, isSupportedPlatform, launch, setLaunch, type LaunchInfo } from './launch';
import { mountNativeUi, setButtonColors } from './native-ui';
import type { Theme } from './settings';
import { readString, writeString } from './storage';

const INIT_DATA_KEY = 'fragbox.initData';
let rawInitData: string | null = null;

/**
 * The raw init data from the first load of this tab. Browser routing keeps the hash, but
 * Telegram's own navigation or a reload can lose it, so it is kept in session storage.
 */
export function getRawInitData(): string | null {
  return rawInitData ?? readString(INIT_DATA_KEY, 'session');
}

/** A real Telegram client is around: its bridge object, or we are framed by Telegram Web. */
function telegramBridgePresent(): boolean {
  const w = window as unknown as { TelegramWebviewProxy?: unknown; external?: { notify?: unknown } };
  if (w.TelegramWebviewProxy) return true;
  if (w.external && typeof w.external.notify === 'function') return true;
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}

/** Reads the launch parameters; null when there are none (not opened by Telegram). */
function readLaunch(demo: boolean): LaunchInfo | null {
  try {
    const lp = retrieveLaunchParams(true);
    const data = lp.tgWebAppData as { user?: { id?: number; languageCode?: string } } | undefined;
    const bg = (lp.tgWebAppThemeParams as { bgColor?: string } | undefined)?.bgColor;
    return {
      platform: String(lp.tgWebAppPlatform || 'unknown'),
      version: String(lp.tgWebAppVersion || '0'),
      startParam: lp.tgWebAppStartParam ?? null,
      // The demo's init data always says "ru" (a stand-in user): the browser's language is the
      // player's real one there.
      languageCode: (demo ? browserLanguage() : null) ?? data?.user?.languageCode ?? null,
      userId: typeof data?.user?.id === 'number' ? data.user.id : null,
      colorScheme: bg ? (isDarkColor(bg) ? 'dark' : 'light') : null,
      demo,
    };
  } catch {
    return null;
  }
}

function isDarkColor(hex: string): boolean {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return true;
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
}

export type EnvironmentResult = { ok: true; info: LaunchInfo } | { ok: false };

/**
 * Decides where we run. A real client (bridge present, launch parameters readable) wins;
 * otherwise, in demo mode, the environment is mocked; otherwise we are not in Telegram.
 * `demo` is a promise so a real client never waits for `/config`.
 */
export async function detectEnvironment(demo: () => Promise<boolean>, preferredTheme: Theme): Promise<EnvironmentResult> {
  if (telegramBridgePresent()) {
    const info = readLaunch(false);
    if (info && isSupportedPlatform(info.platform)) return keep(info);
  }
  const startParam = demoStartParam();
  // Outside Telegram the demo's init data is asked for beside `/config` (one round trip less
  // on the first open); it is used only if the server says it runs the demo.
  const early = fetchDemoInitData(startParam);
  early.catch(() => undefined);
  if (!(await demo())) return { ok: false };
  keepDemoStartParam(startParam);
  const initData = await early;
  startDemoEnvironment(initData, preferredTheme, startParam);
  // Reading the launch parameters back validates them (valibot): a task of its own.
  await nextTask();
  const info = readLaunch(true);
  // Sign in with exactly what the server signed, not the mock's copy.
  return info ? keep(info, initData) : { ok: false };
}

function keep(info: LaunchInfo, raw?: string): EnvironmentResult {
  setLaunch(info);
  if (raw !== undefined) {
    rawInitData = raw;
  } else {
    try {
      rawInitData = retrieveRawInitData() ?? null;
    } catch {
      rawInitData = null;
    }
  }
  if (rawInitData) writeString(INIT_DATA_KEY, rawInitData, 'session');
  return { ok: true, info };
}

/**
 * Sends a method to the client exactly as the SDK's own `postEvent` does (iframe: a message to
 * the parent; Android and iOS: `TelegramWebviewProxy.postEvent`; Windows Phone:
 * `external.notify`), without its environment check: that check validates the whole `window`
 * object on every call, which costs a long task on slow phones and reads deprecated browser
 * properties (Lighthouse's "deprecated APIs").
 */
function fastPostEvent(type: string, data?: unknown): void {
  const w = window as unknown as {
    TelegramWebviewProxy?: { postEvent?: (t: string, d: string) => void };
    external?: { notify?: (m: string) => void };
  };
  const message = JSON.stringify({ eventType: type, eventData: data });
  let framed: boolean;
  try {
    framed = window.self !== window.top;
  } catch {
    framed = true;
  }
  if (framed) {
    sdkPostMessage(message, targetOrigin());
    return;
  }
  if (typeof w.TelegramWebviewProxy?.postEvent === 'function') {
    w.TelegramWebviewProxy.postEvent(type, JSON.stringify(data));
    return;
  }
  if (typeof w.external?.notify === 'function') {
    w.external.notify(message);
    return;
  }
  throw new Error(`no Telegram client to send ${type} to`);
}

/**
 * Initialises the SDK (call once, before rendering), then mounts its components and binds
 * their CSS variables in the bridge queue: one call per task, in this order, ahead of any call
 * the first screen makes. Nothing here is needed to draw the first screen (its theme comes
 * from the launch parameters already read). The back button, swipe behaviour, secondary
 * button and closing behaviour mount on first use (each first SDK call costs a validation
 * of the launch parameters: fewer of them while the first screen loads).
 */
export function initTelegram(): void {
  initSdk({ postEvent: fastPostEvent as unknown as PostEventFn });
  bridgeLater(() => mountThemeParamsSync.ifAvailable());
  bridgeLater(() => {
    const dark = isThemeParamsDark();
    if (typeof dark === 'boolean') setLaunch({ ...launch, colorScheme: dark ? 'dark' : 'light' });
  });
  bridgeLater(() => bindThemeParamsCssVars.ifAvailable());
  mountNativeUi();
  bridgeLater(() => {
    if (!mountViewport.isAvailable()) return;
    mountViewport()
      .then(() => {
        bridgeCall(() => bindViewportCssVars.ifAvailable());
        bridgeCall(() => expandViewport.ifAvailable());
        // Spec section 1: on android and ios the app asks for fullscreen.
        if (launch.platform === 'android' || launch.platform === 'ios') {
          bridgeCall(() => {
            const r = requestFullscreen.ifAvailable();
            if (r && Array.isArray(r) && r[1] instanceof Promise) r[1].catch(() => undefined);
          });
        }
      })
      .catch((e: unknown) => console.warn('viewport mount failed', e));
  });
}

/** Calls `listener` whenever Telegram's colour scheme changes (the player switched themes). */
export function onColorSchemeChange(listener: (scheme: Theme) => void): () => void {
  try {
    return isThemeParamsDark.sub((dark: boolean | undefined) => {
      if (typeof dark === 'boolean') listener(dark ? 'dark' : 'light');
    });
  } catch {
    return () => undefined;
  }
}

/**
 * Tells Telegram the first screen is drawn (it hides its loading placeholder). main.tsx calls
 * it through `onFirstScreenDrawn` (lib/first-draw.ts): after the frame that paints it.
 */
export function signalReady(): void {
  bridgeCall(() => miniAppReady.ifAvailable());
}

/**
 * Paints Telegram's header, background and bottom bar in the page's colours (which follow the
 * client's palette when the chosen theme is Telegram's own), and gives the native bottom
 * buttons the page's contrast-checked button colours.
 */
export function applyChromeColors(theme: Theme, colors: { bg: string; button: string; buttonText: string }): void {
  // Posted directly (after the client-version check the SDK would make): the SDK's mini-app
  // component would cost a mount and three environment checks at start for the same events.
  for (const method of ['web_app_set_header_color', 'web_app_set_background_color', 'web_app_set_bottom_bar_color'] as const) {
    bridgeCall(() => {
      if (supports(method, launch.version)) fastPostEvent(method, { color: colors.bg });
    });
  }
  setButtonColors({ button: colors.button, buttonText: colors.buttonText });
  if (launch.demo) demoClientFollowsTheme(theme);
}

/** Calls `listener` after every `theme_changed` (the CSS variables are rebound by then). */
export function onThemeChanged(listener: () => void): () => void {
  try {
    return on('theme_changed', () => setTimeout(listener, 0));
  } catch {
    return () => undefined;
  }
}

// --- Back button ---------------------------------------------------------------------------

let backHandler: (() => void) | null = null;
let backMounted = false;

/**
 * Shows Telegram's back button with `onClick`, or hides it (`null`). The button mounts when it
 * is first shown: until then it is hidden anyway (Telegram starts a mini app without it).
 */
export function setBackButton(onClick: (() => void) | null): void {
  backHandler = onClick;
  if (!backMounted) {
    if (!onClick) return;
    backMounted = true;
    bridgeCall(() => mountBackButton.ifAvailable());
    bridgeCall(() => backButton.onClick.ifAvailable(() => backHandler?.()));
  }
  if (onClick) bridgeCall(() => backButton.show.ifAvailable());
  else bridgeCall(() => backButton.hide.ifAvailable());
}

let swipesMounted = false;

/** Mounts the swipe behaviour before its first use (the roulette). */
export function ensureSwipeBehavior(): void {
  if (swipesMounted) return;
  swipesMounted = true;
  bridgeCall(() => mountSwipeBehavior.ifAvailable());
}

// --- Haptics and links ----------------------------------------------------------------------

export const haptic = {
  light: () => bridgeCall(() => hapticFeedbackImpactOccurred.ifAvailable('light')),
  medium: () => bridgeCall(() => hapticFeedbackImpactOccurred.ifAvailable('medium')),
  selection: () => bridgeCall(() => hapticFeedbackSelectionChanged.ifAvailable()),
  success: () => bridgeCall(() => hapticFeedbackNotificationOccurred.ifAvailable('success')),
  error: () => bridgeCall(() => hapticFeedbackNotificationOccurred.ifAvailable('error')),
};

/** Opens a link: t.me links inside Telegram, others in the external browser. */
export function openLink(url: string): void {
  if (!url) return;
  const absolute = url.startsWith('/') ? new URL(url, window.location.origin).toString() : url;
  if (/^https:\/\/t\.me\//i.test(absolute)) {
    const r = safe(() => sdkOpenTelegramLink.ifAvailable(absolute));
    if (r && Array.isArray(r) && r[0]) return;
  } else {
    const r = safe(() => sdkOpenLink.ifAvailable(absolute));
    if (r && Array.isArray(r) && r[0]) return;
  }
  window.open(absolute, '_blank', 'noopener');
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    console.warn('telegram call failed', e);
    return undefined;
  }
}
