/**
 * Pure arithmetic of the case roulette (spec section 9):
 * a virtual list of 3000 slots, the strip starts at slot 500, the server's
 * weapon sits at slot 1500, every other slot cycles through the case's items
 * in a random order. The spin scrolls for 500 ms, the winner is highlighted
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
 * The virtual strip: 3000 slots without 3000 objects. Slot 1500 is the winner
 * (or, before the server answered, whatever the cycle puts there).
 */
export function buildStrip<T>(items: readonly T[], winner: T | null, rng: Rng): Strip<T> {
  const cycle = shuffle(items, rng);
  if (cycle.length === 0 && winner !== null) cycle.push(winner);
  return {
    length: TOTAL_SLOTS,
    at(index: number): T {
      if (winner !== null && index === WIN_SLOT) return winner;
      return cycle[((index % cycle.length) + cycle.length) % cycle.length]!;
    },
  };
}

/** Same cycle, new winner: the strip keeps its look when the server answers. */
export function withWinner<T>(strip: Strip<T>, winner: T): Strip<T> {
  return {
    length: strip.length,
    at: (index) => (index === WIN_SLOT ? winner : strip.at(index)),
  };
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

/** A landing jitter in [-0.3, 0.3] of a slot: the winner stays well under the marker. */
export function landingJitter(rng: Rng): number {
  return (rng() - 0.5) * 0.6;
}
