/**
 * One connection to `GET /api/v1/feed`: `fetch` with the Bearer header and a streamed body,
 * parsed as Server-Sent Events. After an error, a refused answer, a stream that ended or went
 * quiet, it reconnects with a growing pause, sending the last event id it saw as
 * `Last-Event-ID` so the server resumes after it. `stop()` ends it (the app is hidden, the
 * ribbon left the screen); `start()` resumes with the same last event id.
 */
import { createSseParser } from './sse';

/**
 * A drop as the feed sends it (`docs/api.md`, `GET /feed`). Hand-written: the feed is an event
 * stream (`text/event-stream`) and the OpenAPI document describes no schema for its events.
 */
export interface FeedDrop {
  id: number;
  item: {
    name: string;
    marketHashName: string;
    rarity: string;
    image: string;
    exterior?: string;
    statTrak?: boolean;
  };
  case: { id: string; name: string };
  firstName?: string;
  openedAt: string;
}

export type FeedStatus = 'connecting' | 'live' | 'waiting' | 'stopped';

export interface FeedConnectionOptions {
  url: string;
  /** Headers for each attempt (read then: a new token after a re-sign-in is used). */
  headers: () => Record<string, string>;
  onDrop: (drop: FeedDrop) => void;
  onStatus?: (status: FeedStatus) => void;
  /** Asked after a 401 before the next attempt (signs in again). */
  onUnauthorized?: () => Promise<void>;
  fetch?: typeof fetch;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
}

/** The first pause after a failure; it doubles each failure in a row up to `MAX_DELAY_MS`. */
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;
/** The server sends a heartbeat every 15 s: three missed means the connection is dead. */
export const QUIET_MS = 45_000;

/** The pause before attempt `failures + 1`: doubling, capped, ±20 % so clients spread out. */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function isFeedDrop(v: unknown): v is FeedDrop {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  const item = d.item as Record<string, unknown> | undefined;
  const kase = d.case as Record<string, unknown> | undefined;
  return (
    typeof d.id === 'number' &&
    !!item &&
    typeof item.name === 'string' &&
    typeof item.rarity === 'string' &&
    !!kase &&
    typeof kase.id === 'string' &&
    typeof kase.name === 'string'
  );
}

export interface FeedConnection {
  start(): void;
  stop(): void;
  readonly lastEventId: string;
  readonly running: boolean;
}

export function createFeedConnection(opts: FeedConnectionOptions): FeedConnection {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
  const setTimer = opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>));
  const random = opts.random ?? Math.random;
  let lastEventId = '';
  let running = false;
  let failures = 0;
  let abort: AbortController | null = null;
  // Ends the body being read: an abort alone does not end every WebView's body stream.
  let cancelRead: (() => void) | null = null;
  const end = () => {
    abort?.abort();
    cancelRead?.();
    cancelRead = null;
  };
  let retry: unknown = null;
  let quiet: unknown = null;
  // Each attempt's number: a late callback of an older attempt changes nothing.
  let attempt = 0;

  const status = (s: FeedStatus) => opts.onStatus?.(s);

  const watch = (n: number) => {
    if (quiet !== null) clearTimer(quiet);
    quiet = setTimer(() => {
      if (n === attempt) end();
    }, QUIET_MS);
  };

  const schedule = (n: number) => {
    if (!running || n !== attempt) return;
    if (quiet !== null) clearTimer(quiet);
    quiet = null;
    failures += 1;
    status('waiting');
    retry = setTimer(() => {
      retry = null;
      void connect();
    }, backoffDelay(failures, random));
  };

  const connect = async () => {
    if (!running) return;
    attempt += 1;
    const n = attempt;
    abort = new AbortController();
    const signal = abort.signal;
    status('connecting');
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...opts.headers() };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    watch(n);
    try {
      const res = await doFetch(opts.url, { headers, signal, cache: 'no-store', credentials: 'include' });
      if (res.status === 401 && opts.onUnauthorized) {
        await opts.onUnauthorized().catch(() => undefined);
        schedule(n);
        return;
      }
      if (!res.ok || !res.body) {
        schedule(n);
        return;
      }
      const parser = createSseParser(
        (e) => {
          lastEventId = e.id;
          let drop: unknown;
          try {
            drop = JSON.parse(e.data);
          } catch {
            return;
          }
          if (isFeedDrop(drop)) opts.onDrop(drop);
        },
        // A heartbeat proves the connection alive (watched below, with every chunk).
        () => undefined,
      );
      const reader = res.body.getReader();
      cancelRead = () => void reader.cancel().catch(() => undefined);
      status('live');
      for (;;) {
        const { done, value } = await reader.read();
        if (done || n !== attempt) break;
        watch(n);
        // Data flows: the next failure starts the back-off from the beginning.
        failures = 0;
        parser.push(value);
      }
      if (parser.lastEventId) lastEventId = parser.lastEventId;
    } catch {
      // Network error, or aborted (stopped, or quiet too long): handled below.
    }
    schedule(n);
  };

  return {
    start() {
      if (running) return;
      running = true;
      failures = 0;
      void connect();
    },
    stop() {
      if (!running) return;
      running = false;
      attempt += 1;
      end();
      abort = null;
      if (retry !== null) clearTimer(retry);
      if (quiet !== null) clearTimer(quiet);
      retry = null;
      quiet = null;
      status('stopped');
    },
    get lastEventId() {
      return lastEventId;
    },
    get running() {
      return running;
    },
  };
}
