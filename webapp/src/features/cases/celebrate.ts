/**
 * How loudly the result screen celebrates a win: by the item's value against what the case
 * cost, lifted by rarity (a covert or gold drop is always a big moment).
 */
export type WinTier = 'small' | 'fair' | 'good' | 'big';

/** Rarities that are a big moment whatever the price. */
const TOP_RARITIES = ['covert', 'extraordinary', 'contraband'];

/** Item value / case price, 2 decimals; null when the price is unknown or zero. */
export function valueRatio(itemValue: number | null | undefined, casePrice: number | null | undefined): number | null {
  if (typeof itemValue !== 'number' || typeof casePrice !== 'number' || !(casePrice > 0) || !Number.isFinite(itemValue)) return null;
  return Math.round((itemValue / casePrice) * 100) / 100;
}

/**
 * `small` under half the price back, `fair` up to the price, `good` up to 3×, `big` from 3× or
 * for a top rarity. With no price known, rarity alone decides (`fair` otherwise).
 */
export function winTier(ratio: number | null, rarity: string | null | undefined): WinTier {
  if (rarity && TOP_RARITIES.includes(rarity)) return 'big';
  if (ratio === null) return rarity === 'classified' ? 'good' : 'fair';
  if (ratio >= 3) return 'big';
  if (ratio >= 1) return 'good';
  if (ratio >= 0.5) return 'fair';
  return 'small';
}

/**
 * Tokens still missing to pay `price` with `balance` (0 when it is enough). Balances carry
 * up to 2 decimals: the answer is rounded up to the cent, so paying it always suffices.
 */
export function tokensMissing(price: number, balance: number): number {
  const cents = Math.ceil(Math.round((price - balance) * 10000) / 100);
  return cents > 0 ? cents / 100 : 0;
}
