/**
 * The first open's network round trips, started by the entry (src/main.tsx) as soon as it
 * runs, while the app's scripts are still downloading: `GET /config`, and outside Telegram the
 * demo's init data. Before, they left only once src/start.tsx ran (after React DOM and the
 * Telegram SDK were downloaded and evaluated), so on a slow network the first screen waited
 * for them after the scripts; now they travel beside the scripts (issue 32, point 9).
 *
 * The answers are handed to the app's start (`startApp(early)`), never kept in a global. This
 * module belongs to the entry chunk and imports nothing: the entry must not wait for the shell
 * chunk (it would if the shell imported from here, see vite.config.ts's chunk groups), so the
 * two URLs are written here and in the app (`api-client`'s `API_BASE`, `telegram.ts`'s
 * demo init data URL); early-requests.test.ts keeps them equal.
 */

/** A GET started early: the URL it asked for and its answer. */
export interface EarlyRequest {
  url: string;
  answer: Promise<Response>;
}

export interface EarlyRequests {
  config: EarlyRequest | null;
  /** Outside Telegram only. */
  demoInitData: EarlyRequest | null;
}

const API_BASE: string = import.meta.env.VITE_API_BASE ?? '/api/v1';

/** `GET /config`. */
export function configUrl(): string {
  return `${API_BASE.replace(/\/$/, '')}/config`;
}

/** `GET /dev/init-data` for the stored demo player and the URL's `?startapp=`. */
export function demoInitDataUrl(demoId: string | null, startParam: string | null): string {
  const query = new URLSearchParams();
  if (demoId) query.set('demoId', demoId);
  if (startParam) query.set('startParam', startParam);
  const qs = query.toString();
  return `${API_BASE.replace(/\/$/, '')}/dev/init-data${qs ? `?${qs}` : ''}`;
}

/** Whether a Telegram client hosts the page (its native bridge, or a parent frame on web and desktop). */
function inTelegramClient(): boolean {
  const w = window as unknown as { TelegramWebviewProxy?: unknown; external?: { notify?: unknown } };
  if (w.TelegramWebviewProxy) return true;
  if (w.external && typeof w.external.notify === 'function') return true;
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}

function storedDemoId(): string | null {
  try {
    // `storageKeys.demoId` (lib/storage.ts).
    return globalThis.localStorage?.getItem('demoId') ?? null;
  } catch {
    return null;
  }
}

function get(url: string): EarlyRequest | null {
  try {
    const answer = fetch(url, { headers: { Accept: 'application/json' }, credentials: 'include' });
    // The app may not use it (a dev-gated demo asks again with its proof): never unhandled.
    answer.catch(() => undefined);
    return { url, answer };
  } catch {
    return null;
  }
}

/**
 * `/config` always (every start waits for it); outside Telegram the demo's init data too (the
 * app asks for it there beside `/config` anyway and uses it only when the server runs the demo).
 */
export function startEarlyRequests(): EarlyRequests {
  if (typeof fetch !== 'function') return { config: null, demoInitData: null };
  let outside = false;
  let startParam: string | null = null;
  try {
    outside = !inTelegramClient();
    startParam = new URLSearchParams(window.location.search).get('startapp');
  } catch {
    outside = false;
  }
  return {
    config: get(configUrl()),
    demoInitData: outside ? get(demoInitDataUrl(storedDemoId(), startParam)) : null,
  };
}
