import { describe, expect, it } from 'vitest';
import {
  START_SLOT,
  TIMELINE,
  TOTAL_SLOTS,
  WIN_SLOT,
  CLEAR_AROUND_WINNER,
  buildStrip,
  clearAroundWinner,
  easeOutQuint,
  landingJitter,
  offsetAt,
  offsetForSlot,
  phaseAt,
  poolSize,
  shuffle,
  slotAtCentre,
  stripNodeCount,
  stripPosition,
  winnerNode,
  visibleRange,
  withWinner,
} from './roulette';

/** Deterministic dice for repeatable strips. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('roulette numbers', () => {
  it('uses the spec constants: 3000 slots, start 500, winner 1500', () => {
    expect(TOTAL_SLOTS).toBe(3000);
    expect(START_SLOT).toBe(500);
    expect(WIN_SLOT).toBe(1500);
  });

  it('scrolls 500 ms, highlights 1500 ms later and leaves 2000 ms after that', () => {
    expect(TIMELINE).toEqual({ scrollEnd: 500, highlightAt: 2000, navigateAt: 4000 });
    expect(phaseAt(0)).toBe('scrolling');
    expect(phaseAt(499)).toBe('scrolling');
    expect(phaseAt(500)).toBe('landed');
    expect(phaseAt(1999)).toBe('landed');
    expect(phaseAt(2000)).toBe('highlight');
    expect(phaseAt(3999)).toBe('highlight');
    expect(phaseAt(4000)).toBe('leave');
  });
});

describe('the strip', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('puts the server weapon at slot 1500', () => {
    const strip = buildStrip(items, 'WIN', seeded(1));
    expect(strip.length).toBe(3000);
    expect(strip.at(1500)).toBe('WIN');
    expect(strip.at(1499)).not.toBe('WIN');
    expect(strip.at(1501)).not.toBe('WIN');
  });

  it('cycles through every item of the shuffled list', () => {
    const strip = buildStrip(items, null, seeded(7));
    const firstCycle = Array.from({ length: 5 }, (_, i) => strip.at(i));
    expect([...firstCycle].sort()).toEqual(items);
    for (let i = 0; i < 40; i++) expect(strip.at(i + 5)).toBe(strip.at(i));
  });

  it('shuffles without losing or duplicating an item', () => {
    const many = Array.from({ length: 50 }, (_, i) => i);
    const out = shuffle(many, seeded(3));
    expect([...out].sort((a, b) => a - b)).toEqual(many);
    expect(out).not.toEqual(many);
  });

  it('keeps the look of the strip when the winner arrives later', () => {
    const idle = buildStrip(items, null, seeded(9));
    const spun = withWinner(idle, 'WIN');
    expect(spun.at(1500)).toBe('WIN');
    expect(spun.at(1234)).toBe(idle.at(1234));
  });

  it('still shows the winner for a case without listed items', () => {
    const strip = buildStrip([], 'WIN', seeded(1));
    expect(strip.at(0)).toBe('WIN');
    expect(strip.at(2999)).toBe('WIN');
  });
});

describe('slot geometry', () => {
  const slot = 100;
  const viewport = 700;

  it('centres a slot under the marker', () => {
    const offset = offsetForSlot(WIN_SLOT, slot, viewport);
    expect(slotAtCentre(offset, slot, viewport)).toBe(WIN_SLOT);
    expect(slotAtCentre(offsetForSlot(START_SLOT, slot, viewport), slot, viewport)).toBe(START_SLOT);
  });

  it('keeps the winner under the marker for any landing jitter', () => {
    for (const j of [-0.3, -0.1, 0, 0.2, 0.3]) {
      expect(slotAtCentre(offsetForSlot(WIN_SLOT, slot, viewport, j), slot, viewport)).toBe(WIN_SLOT);
    }
    const rng = seeded(5);
    for (let i = 0; i < 100; i++) {
      const j = landingJitter(rng);
      expect(Math.abs(j)).toBeLessThanOrEqual(0.3);
    }
  });

  it('renders only the slots in view plus overscan', () => {
    const offset = offsetForSlot(1000, slot, viewport);
    const { first, last } = visibleRange(offset, slot, viewport, 1);
    expect(first).toBe(996);
    expect(last).toBe(1004);
    expect(last - first + 1).toBeLessThanOrEqual(poolSize(slot, viewport, 1));
  });

  it('clamps the range to the strip', () => {
    expect(visibleRange(-50, slot, viewport).first).toBe(0);
    expect(visibleRange(2999 * slot, slot, viewport).last).toBe(2999);
  });

  it('needs a pool that does not grow with the strip', () => {
    expect(poolSize(100, 700, 1)).toBe(10);
    for (let offset = 0; offset < 3000 * slot; offset += 37) {
      const { first, last } = visibleRange(offset, slot, viewport, 1);
      expect(last - first + 1).toBeLessThanOrEqual(poolSize(slot, viewport, 1));
    }
  });
});

describe('scroll curve', () => {
  it('starts at the start slot and ends exactly on the target', () => {
    expect(offsetAt(0, 1000, 5000)).toBe(1000);
    expect(offsetAt(500, 1000, 5000)).toBe(5000);
    expect(offsetAt(900, 1000, 5000)).toBe(5000);
  });

  it('only moves forward and slows down', () => {
    let prev = -1;
    let prevStep = Infinity;
    for (let t = 0; t <= 500; t += 10) {
      const v = easeOutQuint(t / 500);
      expect(v).toBeGreaterThanOrEqual(prev);
      if (prev >= 0) {
        const step = v - prev;
        expect(step).toBeLessThanOrEqual(prevStep + 1e-12);
        prevStep = step;
      }
      prev = v;
    }
  });
});

describe('the repeating DOM strip', () => {
  const slot = 104;
  const viewport = 490;

  it('repeats a short case until a period is taller than the viewport', () => {
    const strip = buildStrip(['a', 'b', 'c'], null, seeded(2), Math.ceil(viewport / slot) + 2);
    expect(strip.period).toBe(9);
    for (let i = 0; i < 30; i++) expect(strip.at(i + 9)).toBe(strip.at(i));
  });

  it('shows exactly the virtual strip at every offset of a spin, winner included', () => {
    const items = Array.from({ length: 8 }, (_, i) => `item${i}`);
    const strip = buildStrip(items, 'WIN', seeded(11), Math.ceil(viewport / slot) + 2);
    const nodes = stripNodeCount(viewport, slot, strip.period);
    const from = offsetForSlot(START_SLOT, slot, viewport);
    const to = offsetForSlot(WIN_SLOT, slot, viewport, 0.27);
    for (let t = 0; t <= 520; t += 2) {
      const offset = offsetAt(t, from, to);
      const { base, translate } = stripPosition(offset, slot, strip.period);
      const w = winnerNode(offset, slot, strip.period, nodes);
      // What each node shows: its cycle item, or the winner on the winner node.
      const shown = (j: number) => (j === w ? 'WIN' : strip.at(j % strip.period));
      const { first, last } = visibleRange(offset, slot, viewport, 0);
      for (let s = first; s <= last; s++) {
        const j = s - base;
        expect(j).toBeGreaterThanOrEqual(0);
        expect(j).toBeLessThan(nodes);
        expect(j * slot + translate).toBeCloseTo(s * slot - offset, 6);
        expect(shown(j)).toBe(strip.at(s));
      }
    }
  });

  it('shows the winner node at the end of the spin', () => {
    const strip = buildStrip(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 'W', seeded(4), 7);
    const nodes = stripNodeCount(viewport, slot, strip.period);
    const end = offsetForSlot(WIN_SLOT, slot, viewport);
    const j = winnerNode(end, slot, strip.period, nodes);
    expect(j).toBeGreaterThanOrEqual(0);
    expect(stripPosition(end, slot, strip.period).base + j).toBe(WIN_SLOT);
    expect(winnerNode(offsetForSlot(START_SLOT, slot, viewport), slot, strip.period, nodes)).toBe(-1);
  });
});

describe('the landing (issue 14)', () => {
  const slot = 104;
  it('puts the centre of the winner slot exactly on the marker, whatever the viewport', () => {
    for (const viewport of [300, 517, 640, 733.5]) {
      const offset = offsetForSlot(WIN_SLOT, slot, viewport, landingJitter(Math.random));
      const slotCentre = WIN_SLOT * slot + slot / 2 - offset;
      expect(Math.abs(slotCentre - viewport / 2)).toBeLessThanOrEqual(2);
    }
  });

  it('shows no copy of the winner within two slots of it', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (let seed = 1; seed < 300; seed++) {
      const winner = items[seed % items.length]!;
      const strip = clearAroundWinner(buildStrip(items, null, seeded(seed), 9), (i) => i === winner);
      for (let d = -CLEAR_AROUND_WINNER; d <= CLEAR_AROUND_WINNER; d++) {
        if (d !== 0) expect(strip.at(WIN_SLOT + d), `seed ${seed} slot ${WIN_SLOT + d}`).not.toBe(winner);
      }
      // Still a cycle: the renderer relies on slot i and i + period showing the same item.
      expect(strip.at(WIN_SLOT + 1)).toBe(strip.at(WIN_SLOT + 1 - strip.period));
    }
  });

  it('leaves a strip of only the winner as it is', () => {
    const strip = clearAroundWinner(buildStrip(['a'], null, seeded(1), 5), (i) => i === 'a');
    expect(strip.at(WIN_SLOT + 1)).toBe('a');
  });
});
