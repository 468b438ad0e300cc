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

import type { components } from '../../lib/api-types.gen';

/** The proof of one draw (`FairProof`): recompute it with `GET /fair/verify`. */
export type OpenFair = components['schemas']['FairProof'];

export interface OpenAnswer<Item> {
  /** The first item drawn (the only one of a single open). */
  item: Item;
  balance: number;
  fair?: OpenFair;
  /** Several opened at once: every item in draw order, each with its proof. */
  items?: Array<{ item: Item; fair?: OpenFair }>;
}

export interface OpenDeps<Item> {
  getBalance(): number;
  setBalance(balance: number): void;
  /** POST /cases/{id}/open of `count` cases; throws on failure (an error with `status` and `code` when the server answered). */
  request(caseId: string, requestId: string, count: number): Promise<OpenAnswer<Item>>;
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
  /** Opens `count` (default 1) of the case; `price` is what they cost together. */
  open(caseId: string, price: number, count?: number): Promise<OpenOutcome<Item>>;
  readonly busy: boolean;
  /** The id a retry would reuse, if the last attempt was ambiguous. */
  readonly pendingRequestId: string | null;
}

export function createCaseOpener<Item>(deps: OpenDeps<Item>): CaseOpener<Item> {
  let busy = false;
  let pending: { caseId: string; count: number; requestId: string } | null = null;

  return {
    get busy() {
      return busy;
    },
    get pendingRequestId() {
      return pending?.requestId ?? null;
    },
    async open(caseId, price, count = 1) {
      if (busy) return { kind: 'busy' };
      if (deps.getBalance() < price) return { kind: 'insufficient' };

      busy = true;
      // A retry replays the same request only if it asks for the same thing: the server answers
      // a replayed id with what it first drew, whatever the new body says.
      const requestId =
        pending && pending.caseId === caseId && pending.count === count ? pending.requestId : deps.newRequestId();
      pending = { caseId, count, requestId };
      deps.setBalance(deps.getBalance() - price);
      try {
        const answer = await deps.request(caseId, requestId, count);
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
