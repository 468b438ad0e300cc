/**
 * The ribbon's state: at most `MAX_DROPS` drops, newest first, in a small store of its own so
 * an event re-renders the ribbon alone, never the page. Drops that arrive together (the backlog
 * on connect, a burst) are added in one update per animation frame; a drop that arrives alone
 * is marked `entering` and slides in.
 *
 * The connection is shared by every ribbon on screen (`acquireFeed`): it runs while at least
 * one ribbon is mounted and the app is visible, outlives a screen change by a short grace, and
 * keeps its last event id, so a resumed stream sends only what was missed.
 */
import { create } from 'zustand';

import { authHeaders, buildUrl, reauthorize } from '../../lib/api-client';
import { createFeedConnection, type FeedConnection, type FeedDrop, type FeedStatus } from './connection';

/** Drops kept in memory (and drawn). */
export const MAX_DROPS = 30;
/** A ribbon that leaves the screen keeps the connection this long (the next screen may show one). */
export const RELEASE_GRACE_MS = 3000;

export interface FeedState {
  drops: FeedDrop[];
  /** The drop that arrived alone in the last update (it slides in), or null. */
  entering: number | null;
  status: FeedStatus;
}

export const useFeed = create<FeedState>(() => ({ drops: [], entering: null, status: 'stopped' }));

/** Adds drops to the newest-first list: no duplicates (a reconnect without an id), at most `max`. */
export function mergeDrops(current: FeedDrop[], incoming: FeedDrop[], max = MAX_DROPS): FeedDrop[] {
  const seen = new Set(current.map((d) => d.id));
  const fresh = incoming.filter((d) => !seen.has(d.id) && (seen.add(d.id), true));
  if (fresh.length === 0) return current;
  return [...fresh, ...current].sort((a, b) => b.id - a.id).slice(0, max);
}

let pending: FeedDrop[] = [];
let frame = false;

const nextFrame = (fn: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(fn);
  else setTimeout(fn, 16);
};

function flush(): void {
  frame = false;
  const batch = pending;
  pending = [];
  const { drops } = useFeed.getState();
  const next = mergeDrops(drops, batch);
  if (next === drops) return;
  // Only a drop that arrived on its own while others were already shown slides in.
  const entering = batch.length === 1 && drops.length > 0 ? batch[0].id : null;
  useFeed.setState({ drops: next, entering });
}

export function queueDrop(drop: FeedDrop): void {
  pending.push(drop);
  if (!frame) {
    frame = true;
    nextFrame(flush);
  }
}

interface Visibility {
  readonly hidden: boolean;
  addEventListener(type: 'visibilitychange', fn: () => void): void;
  removeEventListener(type: 'visibilitychange', fn: () => void): void;
}

/**
 * Runs `connection` while someone uses it and the page is visible: hidden, it stops (no socket,
 * no timers on a phone in the background); visible again, it resumes with its last event id.
 */
export function createFeedUsers(
  connection: Pick<FeedConnection, 'start' | 'stop'>,
  page: Visibility | null,
  setTimer: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
  clearTimer: (t: unknown) => void = (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
) {
  let users = 0;
  let active = false;
  let grace: unknown = null;
  const onVisibility = () => {
    if (page?.hidden) connection.stop();
    else if (users > 0) connection.start();
  };
  return {
    acquire(): () => void {
      users += 1;
      if (grace !== null) {
        clearTimer(grace);
        grace = null;
      }
      if (!active) {
        active = true;
        page?.addEventListener('visibilitychange', onVisibility);
        if (!page?.hidden) connection.start();
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        users -= 1;
        if (users > 0) return;
        grace = setTimer(() => {
          grace = null;
          if (users > 0) return;
          active = false;
          page?.removeEventListener('visibilitychange', onVisibility);
          connection.stop();
        }, RELEASE_GRACE_MS);
      };
    },
  };
}

let shared: ReturnType<typeof createFeedUsers> | null = null;

/** Starts (or shares) the feed's connection; call the answer to let it go. */
export function acquireFeed(): () => void {
  if (!shared) {
    const connection = createFeedConnection({
      url: buildUrl('/feed'),
      headers: () => authHeaders(),
      onDrop: queueDrop,
      onStatus: (status) => useFeed.setState({ status }),
      onUnauthorized: reauthorize,
    });
    shared = createFeedUsers(connection, typeof document === 'undefined' ? null : document);
  }
  return shared.acquire();
}
