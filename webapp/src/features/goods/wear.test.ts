import { describe, expect, it } from 'vitest';

import { exteriorOf, formatFloat, wearRange } from './wear';

describe('wear', () => {
  it('a float falls in the Steam exterior band that holds it', () => {
    expect(exteriorOf(0)).toBe('Factory New');
    expect(exteriorOf(0.0699)).toBe('Factory New');
    expect(exteriorOf(0.07)).toBe('Minimal Wear');
    expect(exteriorOf(0.15)).toBe('Field-Tested');
    expect(exteriorOf(0.38)).toBe('Well-Worn');
    expect(exteriorOf(0.45)).toBe('Battle-Scarred');
    expect(exteriorOf(1)).toBe('Battle-Scarred');
  });

  it('no float means no exterior (a vanilla knife)', () => {
    expect(exteriorOf(null)).toBeNull();
    expect(exteriorOf(undefined)).toBeNull();
  });

  it('prints a float with at least four decimals', () => {
    expect(formatFloat(0.25)).toBe('0.2500');
    expect(formatFloat(0.0123456789)).toBe('0.0123456789');
    // Russian screens write the decimal comma, as every other number there.
    expect(formatFloat(0.25, 'ru-RU')).toBe('0,2500');
  });

  it('a range needs both ends in order', () => {
    expect(wearRange({ wearMin: 0, wearMax: 0.8 })).toEqual([0, 0.8]);
    expect(wearRange({ wearMin: null, wearMax: null })).toBeNull();
    expect(wearRange({})).toBeNull();
    expect(wearRange({ wearMin: 0.5, wearMax: 0.5 })).toBeNull();
  });
});
