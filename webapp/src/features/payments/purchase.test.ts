import { describe, expect, it, vi } from 'vitest';

import { createPurchaser, type InvoiceStatus, type Notice, type PurchaseDeps } from './purchase';

const pack = { id: 'pack-s', tokens: 100, bonus: 10, stars: 50 };

function setup(over: Partial<PurchaseDeps> = {}) {
  const notices: Notice['kind'][] = [];
  const listeners = new Set<(s: InvoiceStatus) => void>();
  const calls = { invoices: 0, polls: 0, back: 0, refresh: 0, sleeps: [] as number[] };
  const deps: PurchaseDeps = {
    userId: () => 42,
    clientVersionAtLeast: () => true,
    createInvoice: async () => {
      calls.invoices++;
      return { invoiceLink: 'https://t.me/$abc', transactionId: 'f'.repeat(32) };
    },
    openInvoice: async () => 'paid',
    onInvoiceClosed: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    transactionStatus: async () => {
      calls.polls++;
      return 'success';
    },
    sleep: async (ms) => {
      calls.sleeps.push(ms);
    },
    notify: (n) => notices.push(n.kind),
    refreshProfile: () => {
      calls.refresh++;
    },
    goBack: () => {
      calls.back++;
    },
    ...over,
  };
  return { purchaser: createPurchaser(deps), notices, calls, emit: (s: InvoiceStatus) => listeners.forEach((l) => l(s)), listeners };
}

describe('buying tokens', () => {
  it('pays, waits 3 s, polls once, congratulates, refreshes and goes back', async () => {
    const { purchaser, notices, calls, listeners } = setup();
    expect(await purchaser.buy(pack)).toBe('paid');
    expect(calls.sleeps).toEqual([3000]);
    expect(calls.polls).toBe(1);
    expect(notices).toEqual(['success']);
    expect(calls.refresh).toBe(1);
    expect(calls.back).toBe(1);
    expect(listeners.size).toBe(0);
  });

  it('counts the bonus in the congratulation', async () => {
    const seen: Notice[] = [];
    const { purchaser } = setup({ notify: (n) => seen.push(n) });
    await purchaser.buy(pack);
    expect(seen).toEqual([{ kind: 'success', tokens: 110 }]);
  });

  it.each([
    ['failed', 'failed'],
    ['pending', 'unconfirmed'],
    ['refunded', 'unconfirmed'],
  ])('a transaction that reads %s gives the %s toast and goes back', async (status, notice) => {
    const { purchaser, notices, calls } = setup({ transactionStatus: async () => status });
    await purchaser.buy(pack);
    expect(notices).toEqual([notice]);
    expect(calls.refresh).toBe(0);
    expect(calls.back).toBe(1);
  });

  it('reports a failed status poll', async () => {
    const { purchaser, notices } = setup({
      transactionStatus: async () => {
        throw new Error('network');
      },
    });
    await purchaser.buy(pack);
    expect(notices).toEqual(['statusError']);
  });

  it('says paid but unverified when the transaction id is missing', async () => {
    const { purchaser, notices, calls } = setup({
      createInvoice: async () => ({ invoiceLink: 'https://t.me/$x', transactionId: null }),
    });
    await purchaser.buy(pack);
    expect(notices).toEqual(['paidUnverified']);
    expect(calls.polls).toBe(0);
    expect(calls.back).toBe(1);
  });

  it.each(['failed', 'cancelled'] as const)('a %s invoice gives its toast and stays', async (status) => {
    const { purchaser, notices, calls } = setup({ openInvoice: async () => status });
    expect(await purchaser.buy(pack)).toBe(status);
    expect(notices).toEqual([status]);
    expect(calls.polls).toBe(0);
    expect(calls.back).toBe(0);
  });

  it('rejects without a user id, on an old client and for a broken pack', async () => {
    const a = setup({ userId: () => undefined });
    await a.purchaser.buy(pack);
    const asked: string[] = [];
    const b = setup({ clientVersionAtLeast: (min) => (asked.push(min), false) });
    await b.purchaser.buy(pack);
    const c = setup();
    await c.purchaser.buy({ id: 'x', tokens: 100 });
    expect(asked).toEqual(['6.9']);
    expect([a.notices, b.notices, c.notices]).toEqual([['noUserId'], ['updateApp'], ['invalidPack']]);
    expect(a.calls.invoices + b.calls.invoices + c.calls.invoices).toBe(0);
  });

  it('reports an invoice that cannot be created', async () => {
    const { purchaser, notices } = setup({
      createInvoice: async () => {
        throw new Error('boom');
      },
    });
    expect(await purchaser.buy(pack)).toBe('error');
    expect(notices).toEqual(['invoiceError']);
  });

  it('buys once on a double tap', async () => {
    let close!: (s: InvoiceStatus) => void;
    const { purchaser, calls } = setup({ openInvoice: () => new Promise((r) => (close = r)) });
    const first = purchaser.buy(pack);
    expect(await purchaser.buy(pack)).toBe('busy');
    await vi.waitFor(() => expect(close).toBeTypeOf('function'));
    close('cancelled');
    await first;
    expect(calls.invoices).toBe(1);
  });

  it('an invoice-closed failure during the poll aborts it', async () => {
    let wake!: () => void;
    const h = setup({
      sleep: (_ms, signal) =>
        new Promise<void>((r) => {
          wake = r;
          signal.addEventListener('abort', () => r());
        }),
    });
    const run = h.purchaser.buy(pack);
    await vi.waitFor(() => expect(wake).toBeTypeOf('function'));
    h.emit('failed');
    await run;
    expect(h.calls.polls).toBe(0);
    expect(h.notices).toEqual(['failed']);
    expect(h.calls.back).toBe(0);
  });

  it('a paid event beside the paid promise polls only once', async () => {
    let emit: (s: InvoiceStatus) => void = () => {};
    const h = setup({
      openInvoice: async () => {
        emit('paid');
        return 'paid';
      },
    });
    emit = h.emit;
    await h.purchaser.buy(pack);
    expect(h.calls.polls).toBe(1);
    expect(h.notices).toEqual(['success']);
  });
});
