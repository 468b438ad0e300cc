import { describe, expect, it } from 'vitest';

import { bonusPart, tokensMissing, valueRatio, winTier } from './celebrate';

describe('tokens missing to open a case', () => {
  it('is the price minus the balance', () => {
    expect(tokensMissing(500, 380)).toBe(120);
    expect(tokensMissing(250, 0)).toBe(250);
  });

  it('is zero when the balance is enough', () => {
    expect(tokensMissing(500, 500)).toBe(0);
    expect(tokensMissing(500, 1200.5)).toBe(0);
  });

  it('rounds up to the cent, so paying it always suffices', () => {
    expect(tokensMissing(100, 99.99)).toBe(0.01);
    expect(tokensMissing(100, 40.3)).toBe(59.7);
    expect(tokensMissing(0.3, 0.1)).toBe(0.2);
  });
});

describe('how loudly a win is celebrated', () => {
  it('compares the item value with the case price', () => {
    expect(valueRatio(250, 100)).toBe(2.5);
    expect(valueRatio(33.333, 100)).toBe(0.33);
    expect(valueRatio(10, 0)).toBeNull();
    expect(valueRatio(undefined, 100)).toBeNull();
  });

  it('grows with the value against the price', () => {
    expect(winTier(0.2, 'milspec')).toBe('small');
    expect(winTier(0.5, 'milspec')).toBe('fair');
    expect(winTier(1, 'milspec')).toBe('good');
    expect(winTier(2.99, 'restricted')).toBe('good');
    expect(winTier(3, 'restricted')).toBe('big');
  });

  it('treats a covert or gold drop as big whatever its price', () => {
    expect(winTier(0.4, 'covert')).toBe('big');
    expect(winTier(null, 'extraordinary')).toBe('big');
  });

  it('without a price, leans on rarity', () => {
    expect(winTier(null, 'classified')).toBe('good');
    expect(winTier(null, 'consumer')).toBe('fair');
  });
});

describe('which skins of an open bonus tokens pay for (issue 32, point 3)', () => {
  it('says nothing when paid tokens cover the whole open', () => {
    expect(bonusPart(100, 1, 500, 0)).toEqual({ tokens: 0, skins: 0 });
    expect(bonusPart(100, 3, 500, 200)).toEqual({ tokens: 0, skins: 0 });
  });

  it('counts a mixed open as bonus, as the server does (any bonus token makes the skin bonus)', () => {
    // 150 paid, 100 bonus: the second case is paid 50 paid + 50 bonus.
    expect(bonusPart(100, 2, 250, 100)).toEqual({ tokens: 50, skins: 1 });
    expect(bonusPart(100, 1, 150.5, 100)).toEqual({ tokens: 49.5, skins: 1 });
  });

  it('spends paid tokens first: the first skins are the paid ones', () => {
    expect(bonusPart(100, 5, 1000, 800)).toEqual({ tokens: 300, skins: 3 });
    expect(bonusPart(100, 5, 5000, 5000)).toEqual({ tokens: 500, skins: 5 });
  });

  it('works in cents and never claims more bonus than the balance holds', () => {
    expect(bonusPart(0.3, 1, 0.3, 0.1)).toEqual({ tokens: 0.1, skins: 1 });
    expect(bonusPart(100, 1, 50, 500)).toEqual({ tokens: 50, skins: 1 });
  });
});
