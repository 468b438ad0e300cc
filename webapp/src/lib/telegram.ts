/**
 * Everything that talks to the Telegram client, through `@telegram-apps/sdk-react` only
 * (never `telegram-web-app.js` beside it: buttons stop firing).
 *
 * Bootstrap: read the launch parameters; outside Telegram render the notice; inside, `init()`,
 * then mount theme params, viewport and the main button and bind their CSS variables, one SDK
 * call per task (lib/bridge-queue.ts); the other components mount on first use, and
 * `web_app_ready` goes out once the first screen is painted (lib/first-draw.ts). In demo mode
 * (server `/config` says `demo: true`) the environment is mocked with the server's demo init
 * data.
 */
import {
  backButton,
  bindThemeParamsCssVars,
  bindViewportCssVars,
  emitEvent,
  expandViewport,
  hapticFeedbackImpactOccurred,
  hapticFeedbackNotificationOccurred,
  hapticFeedbackSelectionChanged,
  init as initSdk,
  isThemeParamsDark,
  miniAppReady,
  mockTelegramEnv,
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

import { api } from './api-client';
import { bridgeCall, bridgeLater, nextTask } from './bridge-queue';
import { devGateHeaders } from './dev-gate-proof';
import { frameInsets, frameReceive } from './demo-frame-state';
import { mountNativeUi, setButtonColors } from './native-ui';
import type { Theme } from './settings';
import { readString, storageKeys, writeString } from './storage';
import { palettes } from './theme-palettes';

export interface LaunchInfo {
  platform: string;
  version: string;
  startParam: string | null;
  languageCode: string | null;
  userId: number | null;
  colorScheme: Theme | null;
  demo: boolean;
}

/** What the bootstrap found; read by the stores and screens (version checks, platform). */
export let launch: LaunchInfo = {
  platform: 'unknown',
  version: '0',
  startParam: null,
  languageCode: null,
  userId: null,
  colorScheme: null,
  demo: false,
};

const INIT_DATA_KEY = 'fragbox.initData';
const DEMO_START_KEY = 'fragbox.demoStartParam';
let rawInitData: string | null = null;

/**
 * The raw init data from the first load of this tab. Browser routing keeps the hash, but
 * Telegram's own navigation or a reload can lose it, so it is kept in session storage.
 */
export function getRawInitData(): string | null {
  return rawInitData ?? readString(INIT_DATA_KEY, 'session');
}

/** Compares dotted versions: `versionAtLeast('6.9')` for the Stars purchase, etc. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

export function versionAtLeast(min: string): boolean {
  return compareVersions(launch.version, min) >= 0;
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

/** The browser's preferred language (`navigator.languages[0]`, else `navigator.language`). */
export function browserLanguage(): string | null {
  if (typeof navigator === 'undefined') return null;
  return navigator.languages?.[0] || navigator.language || null;
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

/** Spec section 1: platform web or unknown (or no launch parameters) means "not in Telegram". */
export function isSupportedPlatform(platform: string): boolean {
  return platform !== 'web' && platform !== 'unknown' && platform !== '';
}

/** Every method the app sent to the (mocked) client; e2e tests read `window.__tgEvents`. */
function recordEvent(name: string, params: unknown): void {
  const w = window as unknown as { __tgEvents?: Array<[string, unknown]> };
  (w.__tgEvents ??= []).push([name, params]);
}

function themeParamsFor(theme: Theme): Record<string, string> {
  return palettes[theme];
}

/**
 * Mocks the Telegram environment with the demo init data: an Android client on Bot API 8.0, so
 * maintenance polling, sharing and purchases take their real code paths. The mock answers the
 * requests the SDK makes (theme, viewport, safe areas, fullscreen) and plays the client's part
 * for links, invoices and prepared messages.
 */
export function mockDemoEnvironment(initData: string, theme: Theme, startParam: string | null): void {
  const noInsets = { top: 0, bottom: 0, left: 0, right: 0 };
  const params = new URLSearchParams([
    ['tgWebAppData', initData],
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'android'],
    ['tgWebAppThemeParams', JSON.stringify(themeParamsFor(theme))],
  ]);
  if (startParam) params.set('tgWebAppStartParam', startParam);
  mockTelegramEnv({
    launchParams: params,
    resetPostMessage: true,
    onEvent: (event) => {
      const [name, payload] = event as [string, Record<string, unknown> | undefined];
      recordEvent(name, payload);
      // The demo frame draws Telegram's header, bottom buttons and popups from these events.
      if (frameReceive(name, payload)) return;
      switch (name) {
        case 'web_app_request_theme':
          emitEvent('theme_changed', { theme_params: themeParamsFor(demoTheme) as never });
          break;
        case 'web_app_request_viewport':
          emitEvent('viewport_changed', {
            height: window.innerHeight,
            width: window.innerWidth,
            is_expanded: true,
            is_state_stable: true,
          });
          break;
        case 'web_app_request_safe_area':
          emitEvent('safe_area_changed', noInsets);
          break;
        case 'web_app_request_content_safe_area':
          // Like a fullscreen client's own controls, the frame's header and buttons are the
          // content safe area.
          // The frame draws its header from the start, fullscreen or not: reporting it at once
          // keeps the page from jumping when fullscreen arrives.
          emitEvent('content_safe_area_changed', frameInsets());
          break;
        case 'web_app_request_fullscreen':
          emitEvent('fullscreen_changed', { is_fullscreen: true });
          break;
        case 'web_app_exit_fullscreen':
          emitEvent('fullscreen_changed', { is_fullscreen: false });
          break;
        case 'web_app_open_link':
          window.open(String(payload?.url ?? ''), '_blank', 'noopener');
          break;
        case 'web_app_open_tg_link':
          window.open(`https://t.me${String(payload?.path_full ?? '')}`, '_blank', 'noopener');
          break;
        case 'web_app_open_invoice': {
          // Demo invoices are `$demo{transaction id}`: the demo server pays them through the same
          // successful-payment code the bot runs, then the client reports how it went.
          const slug = String(payload?.slug ?? '');
          const transactionId = slug.startsWith('demo') ? slug.slice('demo'.length) : '';
          void api
            .post(`/dev/pay/${encodeURIComponent(transactionId)}`)
            .then(
              () => 'paid' as const,
              () => 'failed' as const,
            )
            .then((status) => emitEvent('invoice_closed', { slug, status }));
          break;
        }
        case 'web_app_send_prepared_message':
          setTimeout(() => emitEvent('prepared_message_sent'), 300);
          break;
        default:
          break;
      }
    },
  });
}

let demoTheme: Theme = 'dark';

/** The server wants the development gate's proof before it hands out demo init data. */
export class DevGateRequired extends Error {
  constructor() {
    super('dev_gate_required');
  }
}

/** Fetches demo init data for this browser (the same demo user across reloads). */
async function fetchDemoInitData(startParam: string | null): Promise<string> {
  const query = new URLSearchParams();
  const demoId = readString(storageKeys.demoId);
  if (demoId) query.set('demoId', demoId);
  if (startParam) query.set('startParam', startParam);
  const qs = query.toString();
  const res = await fetch(`/api/v1/dev/init-data${qs ? `?${qs}` : ''}`, { headers: { Accept: 'application/json', ...devGateHeaders() } });
  if (res.status === 403) {
    const body = (await res.json().catch(() => null)) as { code?: string } | null;
    if (body?.code === 'dev_gate_required') throw new DevGateRequired();
  }
  if (!res.ok) throw new Error(`demo init data: HTTP ${res.status}`);
  const body = (await res.json()) as { initData?: string; demoId?: number | string };
  if (!body.initData) throw new Error('demo init data: empty answer');
  if (body.demoId !== undefined) writeString(storageKeys.demoId, String(body.demoId));
  return body.initData;
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
  // `?startapp=...` on the demo URL stands in for Telegram's start parameter (deep-link tests),
  // kept for the tab like Telegram keeps launch parameters across reloads.
  const startParam = new URLSearchParams(window.location.search).get('startapp') ?? readString(DEMO_START_KEY, 'session');
  // Outside Telegram the demo's init data is asked for beside `/config` (one round trip less
  // on the first open); it is used only if the server says it runs the demo.
  const early = fetchDemoInitData(startParam);
  early.catch(() => undefined);
  if (!(await demo())) return { ok: false };
  if (startParam) writeString(DEMO_START_KEY, startParam, 'session');
  const initData = await early;
  demoTheme = preferredTheme;
  mockDemoEnvironment(withSignatureField(initData), preferredTheme, startParam);
  // Reading the launch parameters back validates them (valibot): a task of its own.
  await nextTask();
  const info = readLaunch(true);
  // Sign in with exactly what the server signed, not the mock's copy.
  return info ? keep(info, initData) : { ok: false };
}

/**
 * The SDK's launch-parameter schema requires the `signature` field that current Telegram
 * clients send. If the demo init data lacks it, the mock gets a placeholder so the SDK accepts
 * it; sign-in still sends the server's original string (its hash covers only what it signed).
 */
function withSignatureField(initData: string): string {
  const params = new URLSearchParams(initData);
  if (params.has('signature')) return initData;
  params.set('signature', 'demo');
  return params.toString();
}

function keep(info: LaunchInfo, raw?: string): EnvironmentResult {
  launch = info;
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
    if (typeof dark === 'boolean') launch = { ...launch, colorScheme: dark ? 'dark' : 'light' };
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
  if (launch.demo && demoTheme !== theme) {
    // In demo mode the "client" follows the chosen theme, like a player switching Telegram's.
    demoTheme = theme;
    emitEvent('theme_changed', { theme_params: themeParamsFor(theme) as never });
  }
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
