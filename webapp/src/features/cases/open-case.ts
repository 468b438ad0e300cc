/**
 * The case-opening state machine of spec section 4, free of React and fetch
 * so every branch is testable:
 *
 *   idle --press--> (balance < price) --> insufficient (nothing else happens)
 *   idle --press--> opening: price deducted locally, one request in flight
 *   opening --server item--> won: balance set from the server, item handed on
 *   opening --failure--> failed: price added back, the roulette resets
 *
 * Every open carries a requestId. An ambiguous failure (no answer, 5xx, 429)
 * keeps it, so pressing again replays the same request and the server charges
 * once; a definitive answer (success or a 4xx) retires it.
 */

export interface OpenFair {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  roll: number;
}

export interface OpenAnswer<Item> {
  item: Item;
  balance: number;
  fair?: OpenFair;
}

export interface OpenDeps<Item> {
  getBalance(): number;
  setBalance(balance: number): void;
  /** POST /cases/{id}/open; throws on failure (an error with `status` and `code` when the server answered). */
  request(caseId: string, requestId: string): Promise<OpenAnswer<Item>>;
  newRequestId(): string;
}

export type OpenOutcome<Item> =
  | { kind: 'busy' }
  | { kind: 'insufficient' }
  | { kind: 'won'; answer: OpenAnswer<Item>; requestId: string }
  | { kind: 'failed'; error: unknown; retryable: boolean };

/** True when the server may or may not have done the work: retry with the same id. */
export function isAmbiguousFailure(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status === 0) return true;
  return status >= 500 || status === 429 || status === 408;
}

export function isInsufficient(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'insufficient_tokens';
}

export interface CaseOpener<Item> {
  open(caseId: string, price: number): Promise<OpenOutcome<Item>>;
  readonly busy: boolean;
  /** The id a retry would reuse, if the last attempt was ambiguous. */
  readonly pendingRequestId: string | null;
}

export function createCaseOpener<Item>(deps: OpenDeps<Item>): CaseOpener<Item> {
  let busy = false;
  let pending: { caseId: string; requestId: string } | null = null;

  return {
    get busy() {
      return busy;
    },
    get pendingRequestId() {
      return pending?.requestId ?? null;
    },
    async open(caseId, price) {
      if (busy) return { kind: 'busy' };
      if (deps.getBalance() < price) return { kind: 'insufficient' };

      busy = true;
      const requestId =
        pending && pending.caseId === caseId ? pending.requestId : deps.newRequestId();
      pending = { caseId, requestId };
      deps.setBalance(deps.getBalance() - price);
      try {
        const answer = await deps.request(caseId, requestId);
        pending = null;
        deps.setBalance(answer.balance);
        return { kind: 'won', answer, requestId };
      } catch (error) {
        deps.setBalance(deps.getBalance() + price);
        const retryable = isAmbiguousFailure(error);
        if (!retryable) pending = null;
        if (isInsufficient(error)) return { kind: 'insufficient' };
        return { kind: 'failed', error, retryable };
      } finally {
        busy = false;
      }
    },
  };
}

/** A request id the server accepts: 1..64 of [A-Za-z0-9-]. */
export function newRequestId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
