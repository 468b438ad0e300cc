import { describe, expect, it } from 'vitest';

import type { FeedDrop } from './connection';
import { createFeedUsers, MAX_DROPS, mergeDrops, queueDrop, RELEASE_GRACE_MS, useFeed } from './store';

const drop = (id: number): FeedDrop => ({
  id,
  item: { name: `skin ${id}`, marketHashName: `skin ${id}`, rarity: 'milspec', image: '' },
  case: { id: 'fever', name: 'Fever Case' },
  openedAt: '2026-11-25T04:00:00Z',
});
const ids = (ds: FeedDrop[]) => ds.map((d) => d.id);

describe('the ribbon store', () => {
  it('keeps the newest first and at most 30 drops', () => {
    let drops: FeedDrop[] = [];
    for (let i = 1; i <= 45; i += 1) drops = mergeDrops(drops, [drop(i)]);
    expect(drops).toHaveLength(MAX_DROPS);
    expect(ids(drops).slice(0, 3)).toEqual([45, 44, 43]);
    expect(drops.at(-1)?.id).toBe(16);
  });

  it('ignores drops it already has (a reconnect without an id sends the last 20 again)', () => {
    const first = mergeDrops([], [drop(1), drop(2), drop(3)]);
    const again = mergeDrops(first, [drop(2), drop(3)]);
    expect(again).toBe(first);
    expect(ids(mergeDrops(first, [drop(3), drop(4), drop(4)]))).toEqual([4, 3, 2, 1]);
  });
});

describe('drops reaching the ribbon', () => {
  const frame = () => new Promise((r) => setTimeout(r, 40));

  it('arrive in one update per frame; only a drop that comes alone slides in', async () => {
    useFeed.setState({ drops: [], entering: null });
    // The backlog on connect: one update, nothing animates.
    [drop(1), drop(2), drop(3)].forEach(queueDrop);
    expect(useFeed.getState().drops).toEqual([]);
    await frame();
    expect(ids(useFeed.getState().drops)).toEqual([3, 2, 1]);
    expect(useFeed.getState().entering).toBeNull();
    // A live drop on its own.
    queueDrop(drop(4));
    await frame();
    expect(ids(useFeed.getState().drops)).toEqual([4, 3, 2, 1]);
    expect(useFeed.getState().entering).toBe(4);
    // A burst does not animate.
    queueDrop(drop(5));
    queueDrop(drop(6));
    await frame();
    expect(useFeed.getState().entering).toBeNull();
  });
});

/** A page whose visibility the test switches. */
function page() {
  const listeners = new Set<() => void>();
  return {
    hidden: false,
    addEventListener: (_: 'visibilitychange', fn: () => void) => void listeners.add(fn),
    removeEventListener: (_: 'visibilitychange', fn: () => void) => void listeners.delete(fn),
    set(hidden: boolean) {
      this.hidden = hidden;
      listeners.forEach((fn) => fn());
    },
    listeners,
  };
}

function users() {
  const calls: string[] = [];
  const timers: Array<{ fn: () => void; cleared: boolean; ms: number }> = [];
  const p = page();
  const u = createFeedUsers(
    { start: () => calls.push('start'), stop: () => calls.push('stop') },
    p,
    (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    (t) => void ((t as { cleared: boolean }).cleared = true),
  );
  const fire = () => timers.filter((t) => !t.cleared).forEach((t) => ((t.cleared = true), t.fn()));
  return { u, calls, p, timers, fire };
}

describe('the shared connection', () => {
  it('pauses while the app is hidden and resumes when it is shown', () => {
    const { u, calls, p } = users();
    u.acquire();
    p.set(true);
    p.set(false);
    expect(calls).toEqual(['start', 'stop', 'start']);
  });

  it('does not connect while hidden', () => {
    const { u, calls, p } = users();
    p.hidden = true;
    u.acquire();
    expect(calls).toEqual([]);
    p.set(false);
    expect(calls).toEqual(['start']);
  });

  it('survives a screen change (release then acquire within the grace) and stops after the last release', () => {
    const { u, calls, p, timers, fire } = users();
    const home = u.acquire();
    home();
    const store = u.acquire();
    fire();
    expect(calls).toEqual(['start']);
    store();
    expect(timers.at(-1)?.ms).toBe(RELEASE_GRACE_MS);
    fire();
    expect(calls).toEqual(['start', 'stop']);
    expect(p.listeners.size).toBe(0);
  });
});
