import type { Limits } from './api';

/** A promo code as the server accepts it: 3–32 of A–Z, a–z, 0–9, _ and - (any case). */
export const PROMO_CODE = /^[A-Za-z0-9_-]{3,32}$/;

/** The typed code without spaces (pasted codes often carry them). */
export function cleanPromoInput(s: string): string {
  return s.replace(/\s+/g, '');
}

export function isPromoCode(s: string): boolean {
  return PROMO_CODE.test(cleanPromoInput(s));
}

/** Refusals of `POST /promo/redeem` with a text of their own in `responsible.promoErrors`. */
export const PROMO_ERRORS = ['promo_not_found', 'promo_expired', 'promo_exhausted', 'promo_already_redeemed', 'deposit_required', 'self_excluded', 'rate_limited'] as const;

/** The text key of a redeem refusal, or null for one the generic error text covers. */
export function promoErrorKey(code: string): string | null {
  return (PROMO_ERRORS as readonly string[]).includes(code) ? `responsible.promoErrors.${code}` : null;
}

/** The largest daily limit the server takes. */
export const MAX_DAILY_LIMIT = 10_000_000;

/** A typed daily limit: a whole number of tokens from 1, or `invalid`. */
export function parseLimitInput(s: string): number | 'invalid' {
  const t = s.trim().replace(/[\s\u00a0]/g, '');
  if (!/^\d{1,8}$/.test(t)) return 'invalid';
  const n = Number(t);
  return n >= 1 && n <= MAX_DAILY_LIMIT ? n : 'invalid';
}

/** Whether a change of the daily limit applies at once (lowering, or a first limit) or after 24 hours (raising, removing). */
export function appliesAtOnce(current: number | null, next: number | null): boolean {
  if (next === null) return current === null;
  return current === null || next <= current;
}

/** The self-exclusion running at `now` (the server's answer, checked against the clock so an ended one stops showing). */
export function runningExclusion(limits: Limits | null | undefined, now = Date.now()): { until: Date | null; permanent: boolean } | null {
  const ex = limits?.selfExclusion;
  if (!ex?.active) return null;
  if (ex.permanent) return { until: null, permanent: true };
  const until = ex.until ? new Date(ex.until) : null;
  if (!until || Number.isNaN(until.getTime()) || until.getTime() <= now) return null;
  return { until, permanent: false };
}

/** How much of today's limit is left (null: no limit). */
export function leftToday(limits: Limits | null | undefined): number | null {
  // The document marks a null field optional; the server always writes it (null: no limit).
  if (!limits || limits.dailyLimit == null) return null;
  return Math.max(0, limits.dailyLimit - limits.spentToday);
}

/** The daily limit in force at `now`: a raise or removal waiting 24 hours counts from its time (the server's rule). */
export function limitInForce(limits: Limits | null | undefined, now = Date.now()): number | null {
  if (!limits) return null;
  const pending = limits.pendingChange;
  if (pending && new Date(pending.effectiveAt).getTime() <= now) return pending.dailyLimit ?? null;
  return limits.dailyLimit ?? null;
}

/**
 * What the daily spend limit leaves for an open costing `cost` (null: no limit): the tokens left
 * today, when the day resets (the server's UTC midnight, shown in local time), and whether the
 * open is over it.
 */
export function spendRoom(limits: Limits | null | undefined, cost: number, now = Date.now()): { left: number; resetsAt: Date; over: boolean } | null {
  const limit = limitInForce(limits, now);
  if (!limits || limit === null) return null;
  const left = Math.max(0, Math.round((limit - limits.spentToday) * 100) / 100);
  const resetsAt = new Date(limits.dayResetsAt);
  return { left, resetsAt, over: cost > left };
}
