import { describe, expect, it } from 'vitest';
import { chancesByRarity } from './odds';

describe('case odds by rarity', () => {
  it('sums chances per rarity from common to rare', () => {
    expect(
      chancesByRarity([
        { rarity: 'covert', chance: 1 },
        { rarity: 'consumer', chance: 40 },
        { rarity: 'consumer', chance: 30 },
        { rarity: 'milspec', chance: 29 },
      ]),
    ).toEqual([
      { rarity: 'consumer', chance: 70 },
      { rarity: 'milspec', chance: 29 },
      { rarity: 'covert', chance: 1 },
    ]);
  });
});
