/**
 * The Stars purchase flow of spec section 4, with every effect injected so
 * each branch is a test:
 *
 * 1. user id present, client version >= 6.9, pack has id, stars and tokens;
 * 2. create the invoice link, open it, read the status;
 * 3. 'paid': wait 3 s, poll the transaction once: success -> congratulation
 *    (2 s) and profile refresh, failed -> failure, other -> could not confirm;
 *    then back;
 * 4. paid without a transaction id: paid but not verified;
 * 5. the invoice-closed event is handled too: failed / cancelled toast and
 *    abort a pending poll. A second 'paid' never starts a second poll.
 *
 * A purchase in flight blocks another one (a double tap buys once).
 */
export const MIN_STARS_VERSION = '6.9';
export const POLL_DELAY_MS = 3000;

export type InvoiceStatus = 'paid' | 'failed' | 'cancelled' | 'pending' | string;

export interface Pack {
  id?: string;
  tokens?: number;
  bonus?: number;
  stars?: number;
}

export type Notice =
  | { kind: 'noUserId' }
  | { kind: 'updateApp' }
  | { kind: 'invalidPack' }
  | { kind: 'invoiceError'; error: unknown }
  | { kind: 'success'; tokens: number }
  | { kind: 'failed' }
  | { kind: 'cancelled' }
  | { kind: 'unconfirmed' }
  | { kind: 'statusError' }
  | { kind: 'paidUnverified' };

export interface PurchaseDeps {
  userId(): number | undefined | null;
  /** True when the Telegram client is at least `min` (the shell's `versionAtLeast`). */
  clientVersionAtLeast(min: string): boolean;
  createInvoice(packId: string, telegramId: number): Promise<{ invoiceLink: string; transactionId?: string | null }>;
  /** Opens the invoice in Telegram; resolves with the status it closed with. */
  openInvoice(link: string): Promise<InvoiceStatus>;
  /** Subscribes to the client's invoice-closed event; returns the unsubscribe. */
  onInvoiceClosed(listener: (status: InvoiceStatus) => void): () => void;
  transactionStatus(id: string, signal: AbortSignal): Promise<string>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  notify(notice: Notice): void;
  refreshProfile(): Promise<unknown> | void;
  goBack(): void;
}

export type PurchaseResult = 'busy' | 'rejected' | 'paid' | 'failed' | 'cancelled' | 'closed' | 'error';

export function createPurchaser(deps: PurchaseDeps) {
  let inFlight = false;

  async function buy(pack: Pack): Promise<PurchaseResult> {
    if (inFlight) return 'busy';
    inFlight = true;
    try {
      return await run(pack);
    } finally {
      inFlight = false;
    }
  }

  async function run(pack: Pack): Promise<PurchaseResult> {
    const telegramId = deps.userId();
    if (!telegramId) {
      deps.notify({ kind: 'noUserId' });
      return 'rejected';
    }
    if (!deps.clientVersionAtLeast(MIN_STARS_VERSION)) {
      deps.notify({ kind: 'updateApp' });
      return 'rejected';
    }
    if (!pack.id || !pack.stars || !pack.tokens) {
      deps.notify({ kind: 'invalidPack' });
      return 'rejected';
    }

    let invoice: { invoiceLink: string; transactionId?: string | null };
    try {
      invoice = await deps.createInvoice(pack.id, telegramId);
    } catch (error) {
      deps.notify({ kind: 'invoiceError', error });
      return 'error';
    }

    const poll = new AbortController();
    let paidHandled: Promise<void> | null = null;
    let outcome: PurchaseResult | null = null;
    const tokens = (pack.tokens ?? 0) + (pack.bonus ?? 0);

    const handlePaid = async () => {
      if (!invoice.transactionId) {
        deps.notify({ kind: 'paidUnverified' });
        deps.goBack();
        return;
      }
      try {
        await deps.sleep(POLL_DELAY_MS, poll.signal);
        if (poll.signal.aborted) return;
        const status = await deps.transactionStatus(invoice.transactionId, poll.signal);
        if (poll.signal.aborted) return;
        if (status === 'success') {
          deps.notify({ kind: 'success', tokens });
          await deps.refreshProfile();
        } else if (status === 'failed') {
          deps.notify({ kind: 'failed' });
        } else {
          deps.notify({ kind: 'unconfirmed' });
        }
      } catch {
        if (poll.signal.aborted) return;
        deps.notify({ kind: 'statusError' });
      }
      deps.goBack();
    };

    const handle = (status: InvoiceStatus) => {
      if (status === 'paid') {
        if (!paidHandled && !poll.signal.aborted) {
          outcome = 'paid';
          paidHandled = handlePaid();
        }
      } else if (status === 'failed' || status === 'cancelled') {
        if (outcome === 'failed' || outcome === 'cancelled') return;
        outcome = status;
        poll.abort();
        deps.notify({ kind: status });
      }
    };

    const unsubscribe = deps.onInvoiceClosed(handle);
    try {
      const status = await deps.openInvoice(invoice.invoiceLink);
      handle(status);
      if (paidHandled) await paidHandled;
    } catch (error) {
      deps.notify({ kind: 'invoiceError', error });
      return 'error';
    } finally {
      unsubscribe();
    }
    return outcome ?? 'closed';
  }

  return {
    buy,
    get busy() {
      return inFlight;
    },
  };
}

/** Resolves after `ms`, or early (without throwing) when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
