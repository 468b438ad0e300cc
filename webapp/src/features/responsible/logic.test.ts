import { describe, expect, it } from 'vitest';

import type { Limits } from './api';
import { appliesAtOnce, cleanPromoInput, isPromoCode, leftToday, limitInForce, parseLimitInput, promoErrorKey, runningExclusion, spendRoom } from './logic';

const limits = (patch: Partial<Limits> = {}): Limits => ({
  dailyLimit: null,
  pendingChange: null,
  spentToday: 0,
  dayResetsAt: '2026-01-02T00:00:00Z',
  selfExclusion: { active: false, until: null, permanent: false },
  ...patch,
});

describe('promo codes', () => {
  it('accepts 3 to 32 letters, digits, _ and - in any case, spaces dropped', () => {
    expect(isPromoCode('stream_24')).toBe(true);
    expect(isPromoCode(' STREAM-24 ')).toBe(true);
    expect(cleanPromoInput(' ab c ')).toBe('abc');
    expect(isPromoCode('ab')).toBe(false);
    expect(isPromoCode('x'.repeat(33))).toBe(false);
    expect(isPromoCode('код123')).toBe(false);
    expect(isPromoCode('a!b')).toBe(false);
  });

  it('gives each refusal of the server its own text and leaves the rest to the generic one', () => {
    for (const code of ['promo_not_found', 'promo_expired', 'promo_exhausted', 'promo_already_redeemed', 'deposit_required', 'self_excluded']) {
      expect(promoErrorKey(code)).toBe(`responsible.promoErrors.${code}`);
    }
    expect(promoErrorKey('internal')).toBeNull();
  });
});

describe('the daily limit', () => {
  it('takes a whole number of tokens from 1', () => {
    expect(parseLimitInput('500')).toBe(500);
    expect(parseLimitInput(' 1 000 ')).toBe(1000);
    expect(parseLimitInput('0')).toBe('invalid');
    expect(parseLimitInput('2.5')).toBe('invalid');
    expect(parseLimitInput('-3')).toBe('invalid');
    expect(parseLimitInput('')).toBe('invalid');
    expect(parseLimitInput('20000000')).toBe('invalid');
  });

  it('applies lowering and a first limit at once, raising and removing after a day', () => {
    expect(appliesAtOnce(null, 100)).toBe(true);
    expect(appliesAtOnce(100, 50)).toBe(true);
    expect(appliesAtOnce(100, 100)).toBe(true);
    expect(appliesAtOnce(100, 150)).toBe(false);
    expect(appliesAtOnce(100, null)).toBe(false);
    expect(appliesAtOnce(null, null)).toBe(true);
  });

  it('says what is left today', () => {
    expect(leftToday(limits())).toBeNull();
    expect(leftToday(limits({ dailyLimit: 100, spentToday: 30 }))).toBe(70);
    expect(leftToday(limits({ dailyLimit: 100, spentToday: 130 }))).toBe(0);
  });
});

describe('self-exclusion', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('runs until its end, or for good', () => {
    expect(runningExclusion(limits(), now)).toBeNull();
    const dated = runningExclusion(limits({ selfExclusion: { active: true, until: '2026-01-02T12:00:00Z', permanent: false } }), now);
    expect(dated?.until?.toISOString()).toBe('2026-01-02T12:00:00.000Z');
    expect(runningExclusion(limits({ selfExclusion: { active: true, until: null, permanent: true } }), now)).toEqual({ until: null, permanent: true });
  });

  it('stops showing once its end has passed, even before the next answer', () => {
    expect(runningExclusion(limits({ selfExclusion: { active: true, until: '2026-01-01T11:59:59Z', permanent: false } }), now)).toBeNull();
  });
});

describe('the daily limit before an open (issue 32, point 4)', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('says what is left today and when it resets, and whether the open is over it', () => {
    const room = spendRoom(limits({ dailyLimit: 500, spentToday: 420 }), 139, now)!;
    expect(room.left).toBe(80);
    expect(room.over).toBe(true);
    expect(room.resetsAt.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(spendRoom(limits({ dailyLimit: 500, spentToday: 100 }), 139, now)!.over).toBe(false);
    expect(spendRoom(limits({ dailyLimit: 500, spentToday: 600 }), 1, now)!.left).toBe(0);
  });

  it('is silent without a limit', () => {
    expect(spendRoom(limits(), 1_000_000, now)).toBeNull();
    expect(spendRoom(null, 10, now)).toBeNull();
  });

  it('reads a waiting raise or removal as in force from its time, like the server', () => {
    const raise = limits({ dailyLimit: 100, pendingChange: { dailyLimit: 1000, effectiveAt: '2026-01-01T11:00:00Z' } });
    expect(limitInForce(raise, now)).toBe(1000);
    const later = limits({ dailyLimit: 100, pendingChange: { dailyLimit: null, effectiveAt: '2026-01-01T13:00:00Z' } });
    expect(limitInForce(later, now)).toBe(100);
    const removed = limits({ dailyLimit: 100, pendingChange: { dailyLimit: null, effectiveAt: '2026-01-01T11:00:00Z' } });
    expect(spendRoom(removed, 500, now)).toBeNull();
  });
});
