import { RARITIES } from '../goods';

/** Sum of item chances per rarity, rarest last, for the case card's odds bar. */
export function chancesByRarity(items: ReadonlyArray<{ rarity?: string; chance?: number }>): Array<{ rarity: string; chance: number }> {
  const sums = new Map<string, number>();
  for (const it of items) {
    const r = it.rarity ?? 'unknown';
    sums.set(r, (sums.get(r) ?? 0) + (it.chance ?? 0));
  }
  const rank = (r: string) => {
    const i = RARITIES.indexOf(r);
    return i < 0 ? RARITIES.length : i;
  };
  return [...sums.entries()].map(([rarity, chance]) => ({ rarity, chance })).sort((a, b) => rank(a.rarity) - rank(b.rarity));
}
