import { describe, expect, it } from 'vitest';

import { canTry, pickByOdds, tryWeight } from './free-try';

const items = [
  { id: 'common', weight: 7000, chance: 70 },
  { id: 'rare', weight: 2500, chance: 25 },
  { id: 'zero', weight: 0, chance: 0 },
  { id: 'gold', weight: 500, chance: 5 },
];

describe('free try: the odds-weighted pick', () => {
  it('walks the items in order and picks the one whose running weight passes the roll', () => {
    expect(pickByOdds(items, () => 0)?.id).toBe('common');
    expect(pickByOdds(items, () => 0.6999)?.id).toBe('common');
    expect(pickByOdds(items, () => 0.7)?.id).toBe('rare');
    expect(pickByOdds(items, () => 0.9499)?.id).toBe('rare');
    expect(pickByOdds(items, () => 0.95)?.id).toBe('gold');
    expect(pickByOdds(items, () => 0.999999)?.id).toBe('gold');
  });

  it('never picks an item with no weight, even when the dice say 1', () => {
    expect(pickByOdds(items, () => 1)?.id).toBe('gold');
    expect(pickByOdds([{ id: 'a', weight: 1 }, { id: 'z', weight: 0 }], () => 1)?.id).toBe('a');
  });

  it('follows the published odds over many draws', () => {
    let seed = 42;
    const rng = () => {
      // A small LCG: reproducible dice for the test.
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const counts: Record<string, number> = {};
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const id = pickByOdds(items, rng)!.id;
      counts[id] = (counts[id] ?? 0) + 1;
    }
    expect(counts.zero).toBeUndefined();
    expect(counts.common! / n).toBeCloseTo(0.7, 1);
    expect(counts.rare! / n).toBeCloseTo(0.25, 1);
    expect(counts.gold! / n).toBeCloseTo(0.05, 1);
  });

  it('uses the displayed chance when the catalog sends no weight', () => {
    const byChance = [
      { id: 'a', chance: 90 },
      { id: 'b', chance: 10 },
    ];
    expect(pickByOdds(byChance, () => 0.89)?.id).toBe('a');
    expect(pickByOdds(byChance, () => 0.91)?.id).toBe('b');
    expect(tryWeight({ chance: 12.5 })).toBe(12.5);
    expect(tryWeight({ weight: 3, chance: 90 })).toBe(3);
  });

  it('answers nothing for a case without drawable items, and such a case cannot be tried', () => {
    expect(pickByOdds([], () => 0.5)).toBeNull();
    expect(pickByOdds([{ id: 'x' }, { id: 'y', weight: 0 }], () => 0.5)).toBeNull();
    expect(canTry([])).toBe(false);
    expect(canTry([{ weight: 0 }, { chance: -1 }])).toBe(false);
    expect(canTry(items)).toBe(true);
  });
});
