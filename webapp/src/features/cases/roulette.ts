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
  /** The cycle length: slot i and slot i + period show the same item (slot 1500 aside). */
  readonly period: number;
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
 * (or, before the server answered, whatever the cycle puts there). The shuffled
 * list is repeated until the cycle is at least `minPeriod` long, so one period
 * is taller than the viewport (the renderer relies on that).
 */
export function buildStrip<T>(items: readonly T[], winner: T | null, rng: Rng, minPeriod = 1): Strip<T> {
  const once = shuffle(items, rng);
  if (once.length === 0 && winner !== null) once.push(winner);
  const cycle = once.slice();
  while (cycle.length > 0 && cycle.length < minPeriod) cycle.push(...once);
  return {
    length: TOTAL_SLOTS,
    period: Math.max(1, cycle.length),
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
    period: strip.period,
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

/**
 * The landing offset within the winner's slot. Zero: the winner lands centred on the marker
 * (a random jitter read as "missed by a few pixels", issue 14).
 */
export function landingJitter(_rng: Rng): number {
  return 0;
}

/*
 * The renderer. Because the strip repeats every `period` slots, a DOM strip of
 * `period + visible + 2` nodes with fixed content shows any window of it: it is
 * moved by `offset mod (period * slotPx)`. A frame then costs one `transform`
 * write and no repaint. Only the winner differs from the cycle: its node gets the
 * winner's picture once the previous slot with the same node has scrolled out of
 * view, which happens before slot 1500 itself comes into view.
 */

/** DOM nodes for a viewport: one period plus a viewport's worth (never depends on TOTAL_SLOTS). */
export function stripNodeCount(viewport: number, slotPx: number, period: number): number {
  return period + Math.ceil(viewport / slotPx) + 2;
}

/** The first slot the DOM strip shows (a multiple of the period) and its translateY. */
export function stripPosition(offset: number, slotPx: number, period: number): { base: number; translate: number } {
  const base = Math.max(0, Math.floor(offset / (period * slotPx))) * period;
  return { base, translate: base * slotPx - offset };
}

/** The node that must show the winner at this offset, or -1 while slot 1500 is far. */
export function winnerNode(offset: number, slotPx: number, period: number, nodes: number): number {
  const { base } = stripPosition(offset, slotPx, period);
  const j = WIN_SLOT - base;
  const firstVisible = Math.floor(offset / slotPx);
  return j >= 0 && j < nodes && firstVisible > WIN_SLOT - period ? j : -1;
}

/** Slots on each side of the winner that must not show another copy of the winner's item. */
export const CLEAR_AROUND_WINNER = 2;

/**
 * The same strip with no copy of the winner's item within `CLEAR_AROUND_WINNER` slots of slot
 * 1500: each such copy in the cycle trades places with an entry far from the winner. `same`
 * tells whether a cycle entry is the winner's item. Positions are cycle positions, so the
 * DOM strip (which shows the cycle) changes only in those few nodes.
 */
export function clearAroundWinner<T>(strip: Strip<T>, same: (item: T) => boolean): Strip<T> {
  const period = strip.period;
  const cycle = Array.from({ length: period }, (_, i) => strip.at(i));
  const mod = (n: number) => ((n % period) + period) % period;
  const near = new Set<number>();
  for (let d = -CLEAR_AROUND_WINNER; d <= CLEAR_AROUND_WINNER; d++) near.add(mod(WIN_SLOT + d));
  for (const p of near) {
    if (p === mod(WIN_SLOT) || !same(cycle[p]!)) continue;
    // The farthest entry from the winner that is another item takes its place.
    for (let k = Math.floor(period / 2); k < period + Math.floor(period / 2); k++) {
      const q = mod(WIN_SLOT + k);
      if (near.has(q) || same(cycle[q]!)) continue;
      [cycle[p], cycle[q]] = [cycle[q]!, cycle[p]!];
      break;
    }
  }
  return {
    length: strip.length,
    period,
    at: (index) => (index === WIN_SLOT ? strip.at(WIN_SLOT) : cycle[mod(index)]!),
  };
}
