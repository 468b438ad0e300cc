/** The real goods as the screens show them: names in the player's language, tiers, prices, sorting. */

/** What any item-like answer may carry (case items, inventory items, public cards). */
export interface GoodsLike {
  id?: string | number;
  name?: string;
  variant?: string;
  nameRu?: string;
  variantRu?: string;
  rarity?: string;
  tokenPrice?: number | { formatted: string };
  priceMin?: number;
  priceMax?: number;
  chance?: number;
  special?: boolean;
  openedAt?: string;
}

/** Weapon and finish in `lang`: the Russian names where the answer has them (case detail). */
export function goodsNames(item: GoodsLike, lang: string): { weapon: string; finish: string } {
  const ru = lang === 'ru';
  const weapon = (ru && item.nameRu) || item.name || '';
  const finish = (ru && item.variantRu) || item.variant || '';
  return { weapon, finish };
}

/** "AK-47 | Redline" (or "Karambit" for a vanilla knife), in `lang`. */
export function goodsLabel(item: GoodsLike, lang: string): string {
  const { weapon, finish } = goodsNames(item, lang);
  return finish ? `${weapon} | ${finish}` : weapon;
}

/** A case's name in `lang`. */
export const caseTitle = (c: { name: string; nameRu?: string }, lang: string) => (lang === 'ru' && c.nameRu) || c.name;

/** The tiers a case page groups by, rarest first; ★ specials are the "rare special" tier. */
export const TIERS = ['extraordinary', 'contraband', 'covert', 'classified', 'restricted', 'milspec', 'industrial', 'consumer'] as const;

const tierRank = (rarity: string | undefined) => {
  const i = (TIERS as readonly string[]).indexOf(rarity ?? '');
  return i < 0 ? TIERS.length : i;
};

export const isSpecial = (item: GoodsLike) => item.special === true || item.rarity === 'extraordinary';

/** Items grouped by tier, rarest tier first; each group with its summed chance. */
export function groupByTier<T extends GoodsLike>(items: readonly T[]): Array<{ rarity: string; chance: number; items: T[] }> {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const r = it.rarity ?? 'unknown';
    groups.set(r, [...(groups.get(r) ?? []), it]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => tierRank(a) - tierRank(b))
    .map(([rarity, list]) => ({
      rarity,
      chance: list.reduce((s, i) => s + (i.chance ?? 0), 0),
      items: [...list].sort((a, b) => (priceRange(b)?.[1] ?? 0) - (priceRange(a)?.[1] ?? 0)),
    }));
}

/**
 * The price range over exteriors: the server's `priceMin`/`priceMax`; without them, the one
 * price it gives (both ends the same); null when it gives none.
 */
export function priceRange(item: GoodsLike): [number, number] | null {
  const single = typeof item.tokenPrice === 'number' ? item.tokenPrice : undefined;
  const lo = item.priceMin ?? item.priceMax ?? single;
  const hi = item.priceMax ?? item.priceMin ?? single;
  if (typeof lo !== 'number' || typeof hi !== 'number') return null;
  return lo <= hi ? [lo, hi] : [hi, lo];
}

export type SkinSort = 'recent' | 'price' | 'rarity';
export const SKIN_SORTS: readonly SkinSort[] = ['recent', 'price', 'rarity'];

const priceOf = (i: GoodsLike) => (typeof i.tokenPrice === 'number' ? i.tokenPrice : 0);

/**
 * The skins screen's order: newest first (as the server lists them), dearest first, or rarest
 * first (dearest first within a tier). Stable: equal items keep the server's order.
 */
export function sortSkins<T extends GoodsLike>(items: readonly T[], by: SkinSort): T[] {
  const indexed = items.map((item, i) => ({ item, i }));
  const cmp =
    by === 'price'
      ? (a: T, b: T) => priceOf(b) - priceOf(a)
      : by === 'rarity'
        ? (a: T, b: T) => tierRank(a.special ? 'extraordinary' : a.rarity) - tierRank(b.special ? 'extraordinary' : b.rarity) || priceOf(b) - priceOf(a)
        : () => 0;
  return indexed.sort((a, b) => cmp(a.item, b.item) || a.i - b.i).map((x) => x.item);
}
