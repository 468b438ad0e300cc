import { describe, expect, it } from 'vitest';

import { backoffDelay, BASE_DELAY_MS, createFeedConnection, MAX_DELAY_MS, QUIET_MS, type FeedDrop, type FeedStatus } from './connection';

const drop = (id: number, name = 'AK-47 | Redline'): FeedDrop => ({
  id,
  item: { name, marketHashName: name, rarity: 'classified', image: '/x.webp' },
  case: { id: 'fever', name: 'Fever Case' },
  openedAt: '2026-11-25T04:00:00Z',
});
const block = (d: FeedDrop) => `id: ${d.id}\ndata: ${JSON.stringify(d)}\n\n`;

/** A streamed answer the test writes into and ends (or breaks) by hand. */
function stream() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
  const enc = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    write: (s: string) => ctrl.enqueue(enc.encode(s)),
    end: () => ctrl.close(),
    fail: () => ctrl.error(new TypeError('network')),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await tick();
};

/** A connection over a scripted fetch and hand-run timers. */
function harness(answers: Array<() => Response | Promise<Response>>) {
  const requests: Array<{ url: string; headers: Record<string, string>; signal: AbortSignal }> = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const drops: FeedDrop[] = [];
  const statuses: FeedStatus[] = [];
  let unauthorized = 0;
  let token = 'tok-1';
  const conn = createFeedConnection({
    url: '/api/v1/feed',
    headers: () => ({ Authorization: `Bearer ${token}`, 'Accept-Language': 'ru' }),
    onDrop: (d) => drops.push(d),
    onStatus: (s) => statuses.push(s),
    onUnauthorized: async () => {
      unauthorized += 1;
      token = 'tok-2';
    },
    fetch: async (url, init) => {
      const signal = init?.signal as AbortSignal;
      requests.push({ url: String(url), headers: init?.headers as Record<string, string>, signal });
      const next = answers.shift();
      if (!next) return new Promise<Response>(() => undefined);
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      return next();
    },
    setTimer: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      (t as { cleared: boolean }).cleared = true;
    },
    random: () => 0.5,
  });
  /** The pending retry timers (not the quiet watch). */
  const retries = () => timers.filter((t) => !t.cleared && t.ms !== QUIET_MS);
  const runRetry = async () => {
    const t = retries()[0];
    expect(t, 'a retry is scheduled').toBeDefined();
    t.cleared = true;
    t.fn();
    await settle();
    return t.ms;
  };
  return { conn, requests, timers, drops, statuses, retries, runRetry, unauthorized: () => unauthorized };
}

describe('the feed connection', () => {
  it('sends the Bearer header and reads drops as they stream', async () => {
    const s = stream();
    const h = harness([() => s.response]);
    h.conn.start();
    await settle();
    s.write(block(drop(1)) + ': heartbeat\n\n' + block(drop(2)).slice(0, 20));
    await settle();
    expect(h.drops.map((d) => d.id)).toEqual([1]);
    s.write(block(drop(2)).slice(20));
    await settle();
    expect(h.drops.map((d) => d.id)).toEqual([1, 2]);
    expect(h.requests[0].headers.Authorization).toBe('Bearer tok-1');
    expect(h.requests[0].headers.Accept).toBe('text/event-stream');
    expect(h.requests[0].headers['Last-Event-ID']).toBeUndefined();
    expect(h.statuses).toContain('live');
  });

  it('reconnects after a dropped stream with Last-Event-ID and resumes', async () => {
    const first = stream();
    const second = stream();
    const h = harness([() => first.response, () => second.response]);
    h.conn.start();
    await settle();
    first.write(block(drop(40)) + block(drop(41)));
    await settle();
    first.end();
    await settle();
    expect(h.statuses.at(-1)).toBe('waiting');
    expect(await h.runRetry()).toBe(BASE_DELAY_MS);
    expect(h.requests).toHaveLength(2);
    expect(h.requests[1].headers['Last-Event-ID']).toBe('41');
    second.write(block(drop(42)));
    await settle();
    expect(h.drops.map((d) => d.id)).toEqual([40, 41, 42]);
  });

  it('backs off more after each failure in a row, and from the start once data flows again', async () => {
    const ok = stream();
    const later = stream();
    const h = harness([
      () => Promise.reject(new TypeError('offline')),
      () => new Response('busy', { status: 503 }),
      () => Promise.reject(new TypeError('offline')),
      () => ok.response,
      () => later.response,
    ]);
    h.conn.start();
    await settle();
    expect(await h.runRetry()).toBe(BASE_DELAY_MS);
    expect(await h.runRetry()).toBe(2 * BASE_DELAY_MS);
    expect(await h.runRetry()).toBe(4 * BASE_DELAY_MS);
    ok.write(': hi\n\n');
    await settle();
    ok.fail();
    await settle();
    expect(await h.runRetry()).toBe(BASE_DELAY_MS);
    expect(h.requests).toHaveLength(5);
  });

  it('caps the pause and spreads clients around it', () => {
    expect(backoffDelay(1, () => 0.5)).toBe(BASE_DELAY_MS);
    expect(backoffDelay(30, () => 0.5)).toBe(MAX_DELAY_MS);
    expect(backoffDelay(1, () => 0)).toBe(0.8 * BASE_DELAY_MS);
    expect(backoffDelay(1, () => 1)).toBe(1.2 * BASE_DELAY_MS);
  });

  it('signs in again after a 401 and retries with the new token', async () => {
    const s = stream();
    const h = harness([() => new Response('{}', { status: 401 }), () => s.response]);
    h.conn.start();
    await settle();
    expect(h.unauthorized()).toBe(1);
    await h.runRetry();
    expect(h.requests[1].headers.Authorization).toBe('Bearer tok-2');
  });

  it('ends a stream that stays quiet past three heartbeats and reconnects', async () => {
    const s = stream();
    const h = harness([() => s.response]);
    h.conn.start();
    await settle();
    s.write(block(drop(8)));
    await settle();
    const watch = h.timers.filter((t) => t.ms === QUIET_MS && !t.cleared).at(-1);
    watch!.fn();
    await settle();
    expect(h.requests[0].signal.aborted).toBe(true);
    await h.runRetry();
    expect(h.requests[1].headers['Last-Event-ID']).toBe('8');
  });

  it('stops without reconnecting, and starts again from its last event id', async () => {
    const s = stream();
    const h = harness([() => s.response, () => stream().response]);
    h.conn.start();
    await settle();
    s.write(block(drop(77)));
    await settle();
    h.conn.stop();
    await settle();
    expect(h.requests[0].signal.aborted).toBe(true);
    expect(h.retries()).toEqual([]);
    expect(h.statuses.at(-1)).toBe('stopped');
    h.conn.start();
    await settle();
    expect(h.requests).toHaveLength(2);
    expect(h.requests[1].headers['Last-Event-ID']).toBe('77');
  });

  it('skips data that is not a drop', async () => {
    const s = stream();
    const h = harness([() => s.response]);
    h.conn.start();
    await settle();
    s.write('id: 1\ndata: not json\n\nid: 2\ndata: {"id":2}\n\n' + block(drop(3)));
    await settle();
    expect(h.drops.map((d) => d.id)).toEqual([3]);
    expect(h.conn.lastEventId).toBe('3');
  });
});
