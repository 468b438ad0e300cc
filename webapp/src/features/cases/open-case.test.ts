import { describe, expect, it } from 'vitest';
import { createCaseOpener, newRequestId, type OpenAnswer } from './open-case';

type Item = { id: number };

function harness(balance: number, request: (caseId: string, id: string) => Promise<OpenAnswer<Item>>) {
  const state = { balance, seen: [] as number[], ids: [] as string[], counts: [] as number[] };
  let n = 0;
  const opener = createCaseOpener<Item>({
    getBalance: () => state.balance,
    setBalance: (b) => {
      state.balance = b;
      state.seen.push(b);
    },
    request: (caseId, id, count) => {
      state.ids.push(id);
      state.counts.push(count);
      return request(caseId, id);
    },
    newRequestId: () => `req-${++n}`,
  });
  return { opener, state };
}

const apiError = (status: number, code: string) => Object.assign(new Error(code), { status, code });

describe('opening a case', () => {
  it('deducts the price at once, then takes the balance the server reports', async () => {
    const { opener, state } = harness(100, async () => ({ item: { id: 7 }, balance: 75.5 }));
    const outcome = await opener.open('starter', 25);
    expect(outcome.kind).toBe('won');
    expect(state.seen).toEqual([75, 75.5]);
    expect(opener.busy).toBe(false);
    expect(opener.pendingRequestId).toBeNull();
  });

  it('shows the insufficient dialog and sends nothing when the balance is below the price', async () => {
    const { opener, state } = harness(10, async () => {
      throw new Error('must not be called');
    });
    expect(await opener.open('starter', 25)).toEqual({ kind: 'insufficient' });
    expect(state.ids).toEqual([]);
    expect(state.balance).toBe(10);
  });

  it('restores the balance when the server fails', async () => {
    const { opener, state } = harness(100, async () => {
      throw apiError(500, 'internal');
    });
    const outcome = await opener.open('starter', 25);
    expect(outcome).toMatchObject({ kind: 'failed', retryable: true });
    expect(state.seen).toEqual([75, 100]);
    expect(opener.busy).toBe(false);
  });

  it('turns a server-side insufficient_tokens into the dialog and restores the balance', async () => {
    const { opener, state } = harness(100, async () => {
      throw apiError(409, 'insufficient_tokens');
    });
    expect(await opener.open('starter', 25)).toEqual({ kind: 'insufficient' });
    expect(state.balance).toBe(100);
    expect(opener.pendingRequestId).toBeNull();
  });

  it('reuses the request id on a retry after a lost answer, and a fresh one afterwards', async () => {
    let fail = true;
    const { opener, state } = harness(100, async () => {
      if (fail) throw new TypeError('Failed to fetch');
      return { item: { id: 1 }, balance: 75 };
    });
    await opener.open('starter', 25);
    expect(opener.pendingRequestId).toBe('req-1');
    fail = false;
    await opener.open('starter', 25);
    await opener.open('starter', 25);
    expect(state.ids).toEqual(['req-1', 'req-1', 'req-2']);
  });

  it('does not reuse an id after a definitive refusal', async () => {
    const { opener, state } = harness(100, async () => {
      throw apiError(404, 'case_not_found');
    });
    await opener.open('gone', 25);
    await opener.open('gone', 25);
    expect(state.ids).toEqual(['req-1', 'req-2']);
  });

  it('blocks a second press while opening', async () => {
    let release!: (a: OpenAnswer<Item>) => void;
    const { opener, state } = harness(100, () => new Promise((r) => (release = r)));
    const first = opener.open('starter', 25);
    expect(opener.busy).toBe(true);
    expect(await opener.open('starter', 25)).toEqual({ kind: 'busy' });
    release({ item: { id: 1 }, balance: 75 });
    expect((await first).kind).toBe('won');
    expect(state.ids).toHaveLength(1);
  });

  it('opens several for their total price in one request, and a single one as before', async () => {
    const { opener, state } = harness(100, async () => ({ item: { id: 1 }, balance: 25 }));
    expect((await opener.open('starter', 75, 3)).kind).toBe('won');
    expect(await opener.open('starter', 75, 3)).toEqual({ kind: 'insufficient' });
    await opener.open('starter', 25);
    expect(state.counts).toEqual([3, 1]);
    expect(state.seen.slice(0, 2)).toEqual([25, 25]);
  });

  it('does not replay a lost request id for a different count', async () => {
    let fail = true;
    const { opener, state } = harness(100, async () => {
      if (fail) throw new TypeError('Failed to fetch');
      return { item: { id: 1 }, balance: 50 };
    });
    await opener.open('starter', 50, 2);
    fail = false;
    await opener.open('starter', 75, 3);
    expect(state.ids).toEqual(['req-1', 'req-2']);
    expect(state.counts).toEqual([2, 3]);
  });

  it('makes request ids the server accepts', () => {
    expect(newRequestId()).toMatch(/^[A-Za-z0-9-]{1,64}$/);
  });
});
