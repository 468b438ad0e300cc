import { describe, expect, it } from 'vitest';
import { formatCountdown, msUntilNextClaim, nextUtcMidnight } from './countdown';

describe('daily reward countdown', () => {
  it('counts to the first UTC midnight after the last claim', () => {
    expect(nextUtcMidnight(new Date('2026-11-22T10:15:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-11-22T00:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('shows hours, minutes and seconds left', () => {
    const ms = msUntilNextClaim('2026-11-22T10:15:00Z', new Date('2026-11-22T22:58:30Z'));
    expect(formatCountdown(ms)).toBe('01:01:30');
  });

  it('reaches zero at midnight and stays there', () => {
    expect(msUntilNextClaim('2026-11-22T10:15:00Z', new Date('2026-11-23T00:00:00Z'))).toBe(0);
    expect(msUntilNextClaim('2026-11-22T10:15:00Z', new Date('2026-11-24T05:00:00Z'))).toBe(0);
    expect(formatCountdown(0)).toBe('00:00:00');
  });

  it('is zero without a claim or with an unreadable one', () => {
    expect(msUntilNextClaim(null, new Date())).toBe(0);
    expect(msUntilNextClaim('nonsense', new Date())).toBe(0);
  });

  it('rounds partial seconds up so it never reads zero early', () => {
    expect(formatCountdown(400)).toBe('00:00:01');
  });
});
