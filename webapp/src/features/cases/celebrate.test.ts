import { describe, expect, it } from 'vitest';

import { tokensMissing, valueRatio, winTier } from './celebrate';

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
