/**
 * The free try (issue 24, point 4): a spin drawn on the phone by the case's published odds.
 * It charges nothing, stores nothing and calls no endpoint: it only shows how the roulette and
 * the odds behave. The draw uses each item's exact `weight` when the catalog sends it, else
 * its displayed `chance`; the real draw (the server's, provably fair) is not involved.
 */
import type { Rng } from './roulette';

interface Weighted {
  weight?: number;
  chance?: number;
}

/** The weight the free try draws an item with: `weight`, else `chance`, never below 0. */
export function tryWeight(item: Weighted): number {
  const w = typeof item.weight === 'number' && Number.isFinite(item.weight) ? item.weight : item.chance;
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 0;
}

/** Whether a case can be tried: at least one item with a positive weight. */
export function canTry(items: readonly Weighted[]): boolean {
  return items.some((i) => tryWeight(i) > 0);
}

/**
 * Picks an item with probability weight / total weight (items walked in catalog order, as the
 * server's draw walks them). Null when nothing can be drawn.
 */
export function pickByOdds<T extends Weighted>(items: readonly T[], rng: Rng): T | null {
  const total = items.reduce((sum, i) => sum + tryWeight(i), 0);
  if (total <= 0) return null;
  const roll = Math.min(Math.max(rng(), 0), 1 - Number.EPSILON) * total;
  let running = 0;
  let last: T | null = null;
  for (const item of items) {
    const w = tryWeight(item);
    if (w <= 0) continue;
    running += w;
    last = item;
    if (roll < running) return item;
  }
  // Rounding at the very top of the range: the last drawable item.
  return last;
}
