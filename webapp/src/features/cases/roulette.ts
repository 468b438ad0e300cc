/**
 * Pure arithmetic of the case roulette (spec section 9):
 * a virtual list of 3000 slots, the strip starts at slot 500, the server's
 * weapon sits at slot 1500; every other slot is filled by the case's odds in a
 * random order (issue 32: an honest strip, see `buildStrip`). The spin scrolls for 500 ms, the winner is highlighted
 * 1500 ms after the scroll ends and the app leaves 2000 ms after that.
 *
 * Nothing here touches the DOM: the component asks which slots are visible
 * for a given offset and what each slot shows.
 */

export const TOTAL_SLOTS = 3000;
export const START_SLOT = 500;
export const WIN_SLOT = 1500;

export const SCROLL_MS = 500;
export const HIGHLIGHT_AFTER_SCROLL_MS = 1500;
export const NAVIGATE_AFTER_HIGHLIGHT_MS = 2000;

/** Milliseconds from the start of the spin. */
export const TIMELINE = {
  scrollEnd: SCROLL_MS,
  highlightAt: SCROLL_MS + HIGHLIGHT_AFTER_SCROLL_MS,
  navigateAt: SCROLL_MS + HIGHLIGHT_AFTER_SCROLL_MS + NAVIGATE_AFTER_HIGHLIGHT_MS,
} as const;

export type SpinPhase = 'scrolling' | 'landed' | 'highlight' | 'leave';

/** Phase of the spin `elapsed` ms after it started. */
export function phaseAt(elapsed: number): SpinPhase {
  if (elapsed < TIMELINE.scrollEnd) return 'scrolling';
  if (elapsed < TIMELINE.highlightAt) return 'landed';
  if (elapsed < TIMELINE.navigateAt) return 'highlight';
  return 'leave';
}

/** A random source in [0, 1); injected so tests fix the dice. */
export type Rng = () => number;

export interface Strip<T> {
  readonly length: number;
  at(index: number): T;
}

/** Fisher–Yates shuffle into a new array. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = out[i]!;
    out[i] = out[j]!;
    out[j] = tmp;
  }
  return out;
}

/**
 * How many of `total` slots each item gets: its share of the summed weight, rounded by the
 * largest remainder (Hamilton's method), so the counts add up to `total` exactly and each is
 * within one slot of `total × weight / sum`. Equal remainders are ordered at random (a case's
 * dozens of ★ variants share their few slots by chance). Items without a positive weight get
 * none; when no item has one, every item weighs the same.
 */
export function slotQuotas(weights: readonly number[], total: number, rng: Rng): number[] {
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  let sum = clean.reduce((a, b) => a + b, 0);
  const used = sum > 0 ? clean : clean.map(() => 1);
  if (sum <= 0) sum = used.length;
  if (used.length === 0 || total <= 0) return used.map(() => 0);
  const exact = used.map((w) => (w / sum) * total);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = shuffle(
    used.map((_, i) => i),
    rng,
  ).sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!));
  for (const i of order) {
    if (left <= 0) break;
    if (used[i]! <= 0) continue;
    counts[i]! += 1;
    left -= 1;
  }
  return counts;
}

/**
 * Slots per item, tier by tier: each group (a rarity) first gets its share of `total` by the
 * largest remainder, then its items share the group's slots the same way. So a tier's count is
 * within one slot of its odds however many items it holds (40 ★ variants at 0.0065 % each
 * still fill the ★ tier's 7–8 slots of 3000, which item by item they would mostly lose).
 */
export function groupedQuotas(weights: readonly number[], groups: readonly string[], total: number, rng: Rng): number[] {
  const byGroup = new Map<string, number[]>();
  weights.forEach((_, i) => {
    const g = groups[i] ?? '';
    byGroup.set(g, [...(byGroup.get(g) ?? []), i]);
  });
  const keys = [...byGroup.keys()];
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const anyWeight = clean.some((w) => w > 0);
  const used = anyWeight ? clean : clean.map(() => 1);
  const groupTotals = slotQuotas(
    keys.map((k) => byGroup.get(k)!.reduce((sum, i) => sum + used[i]!, 0)),
    total,
    rng,
  );
  const out = weights.map(() => 0);
  keys.forEach((k, g) => {
    const members = byGroup.get(k)!;
    const inner = slotQuotas(
      members.map((i) => used[i]!),
      groupTotals[g]!,
      rng,
    );
    members.forEach((i, m) => {
      out[i] = inner[m]!;
    });
  });
  return out;
}

/**
 * The virtual strip (issue 32, point 1): every one of the 3000 slots is filled by the case's
 * odds, so a tier fills about as many slots as its chance says (★ items at 0.26 % about 8 of
 * 3000), in a random order. The spec's "item list shuffled randomly and cycling" gave each entry
 * the same room, so a case's dozens of ★ variants filled half the strip (docs/decisions.md).
 * Slot 1500 is the winner once it is known; nothing else is arranged around it. `groupOf`
 * names an item's tier (its rarity) for `groupedQuotas`.
 */
export function buildStrip<T>(
  items: readonly T[],
  weightOf: (item: T) => number,
  winner: T | null,
  rng: Rng,
  groupOf: (item: T) => string = () => '',
  total = TOTAL_SLOTS,
): Strip<T> {
  const quotas = groupedQuotas(
    items.map((i) => weightOf(i)),
    items.map((i) => groupOf(i)),
    total,
    rng,
  );
  const filled: T[] = [];
  quotas.forEach((n, i) => {
    for (let k = 0; k < n; k++) filled.push(items[i]!);
  });
  const slots = shuffle(filled, rng);
  return {
    length: total,
    at(index: number): T {
      if (winner !== null && index === WIN_SLOT) return winner;
      return (slots[index] ?? winner) as T;
    },
  };
}

/** Same slots, new winner: the strip keeps its look when the server answers. */
export function withWinner<T>(strip: Strip<T>, winner: T): Strip<T> {
  return {
    length: strip.length,
    at: (index) => (index === WIN_SLOT ? winner : strip.at(index)),
  };
}

/** How many of the strip's slots satisfy `pred` (the ★ share a test or a screen can check). */
export function countSlots<T>(strip: Strip<T>, pred: (item: T) => boolean): number {
  let n = 0;
  for (let i = 0; i < strip.length; i++) if (pred(strip.at(i))) n += 1;
  return n;
}

/**
 * Scroll offset (px from the top of slot 0) that centres `slot` in a viewport
 * of `viewport` px, shifted by `jitter` (a fraction of a slot, within ±0.5)
 * so the marker does not always hit the exact middle.
 */
export function offsetForSlot(slot: number, slotPx: number, viewport: number, jitter = 0): number {
  return slot * slotPx + slotPx / 2 + jitter * slotPx - viewport / 2;
}

/** Slot under the centre marker for a given offset. */
export function slotAtCentre(offset: number, slotPx: number, viewport: number): number {
  return Math.floor((offset + viewport / 2) / slotPx);
}

/** Inclusive range of slots a viewport shows, plus `overscan` on each side, clamped to the strip. */
export function visibleRange(
  offset: number,
  slotPx: number,
  viewport: number,
  overscan = 1,
): { first: number; last: number } {
  const first = Math.max(0, Math.floor(offset / slotPx) - overscan);
  const last = Math.min(TOTAL_SLOTS - 1, Math.ceil((offset + viewport) / slotPx) - 1 + overscan);
  return { first, last };
}

/** Number of DOM nodes the roulette needs for a viewport: never depends on TOTAL_SLOTS. */
export function poolSize(slotPx: number, viewport: number, overscan = 1): number {
  return Math.ceil(viewport / slotPx) + 1 + 2 * overscan;
}

/** Quintic ease-out: fast start, a long readable landing. */
export function easeOutQuint(t: number): number {
  const c = Math.min(1, Math.max(0, t));
  return 1 - (1 - c) ** 5;
}

/** Offset during the scroll, `elapsed` ms in, from `from` px to `to` px. */
export function offsetAt(elapsed: number, from: number, to: number): number {
  return from + (to - from) * easeOutQuint(elapsed / SCROLL_MS);
}

/**
 * The landing offset within the winner's slot. Zero: the winner lands centred on the marker
 * (a random jitter read as "missed by a few pixels", issue 14).
 */
export function landingJitter(_rng: Rng): number {
  return 0;
}

/**
 * The renderer keeps a small pool of nodes (`poolSize`): slot `s` is drawn by node
 * `s mod pool`, moved with one `transform` and repainted only when the slot it shows changes.
 * A window of `pool` consecutive slots never puts two on one node.
 */
export function nodeForSlot(slot: number, pool: number): number {
  return ((slot % pool) + pool) % pool;
}
