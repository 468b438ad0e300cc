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

const cents = (v: number) => Math.round(v * 100);

/**
 * How an open of `count` cases at `price` each would be paid (the server's rule: paid tokens
 * first, bonus only for what they cannot cover; open i is paid by the debit's tokens
 * `[i × price, (i + 1) × price)`): the bonus tokens it would spend, and how many of its skins
 * the bonus part touches — each of those is won with bonus tokens (a mixed open counts as
 * bonus), so it can be kept or sold but not withdrawn where the shop is paid-only.
 */
export function bonusPart(price: number, count: number, balance: number, bonusBalance: number): { tokens: number; skins: number } {
  const p = cents(price);
  const n = Math.max(1, Math.floor(count));
  const bonus = Math.min(Math.max(0, cents(bonusBalance)), Math.max(0, cents(balance)));
  const paid = Math.max(0, cents(balance) - bonus);
  const spent = Math.max(0, p * n - paid);
  if (spent <= 0 || p <= 0) return { tokens: 0, skins: 0 };
  const paidWhole = Math.floor(paid / p);
  return { tokens: Math.min(spent, bonus) / 100, skins: Math.min(n, n - paidWhole) };
}
