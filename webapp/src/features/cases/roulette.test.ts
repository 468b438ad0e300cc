import { describe, expect, it } from 'vitest';
import {
  START_SLOT,
  TIMELINE,
  TOTAL_SLOTS,
  WIN_SLOT,
  buildStrip,
  countSlots,
  easeOutQuint,
  landingJitter,
  offsetAt,
  offsetForSlot,
  phaseAt,
  poolSize,
  nodeForSlot,
  shuffle,
  slotAtCentre,
  slotQuotas,
  groupedQuotas,
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

const equal = () => 1;

describe('the strip', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('puts the server weapon at slot 1500', () => {
    const strip = buildStrip(items, equal, 'WIN', seeded(1));
    expect(strip.length).toBe(3000);
    expect(strip.at(1500)).toBe('WIN');
    expect(strip.at(1499)).not.toBe('WIN');
    expect(strip.at(1501)).not.toBe('WIN');
  });

  it('shuffles without losing or duplicating an item', () => {
    const many = Array.from({ length: 50 }, (_, i) => i);
    const out = shuffle(many, seeded(3));
    expect([...out].sort((a, b) => a - b)).toEqual(many);
    expect(out).not.toEqual(many);
  });

  it('keeps the look of the strip when the winner arrives later', () => {
    const idle = buildStrip(items, equal, null, seeded(9));
    const spun = withWinner(idle, 'WIN');
    expect(spun.at(1500)).toBe('WIN');
    for (let i = 0; i < 3000; i++) if (i !== 1500) expect(spun.at(i)).toBe(idle.at(i));
  });

  it('still shows the winner for a case without listed items', () => {
    const strip = buildStrip([], equal, 'WIN', seeded(1));
    expect(strip.at(0)).toBe('WIN');
    expect(strip.at(2999)).toBe('WIN');
  });
});

describe('an honest strip (issue 32, point 1)', () => {
  /** A case shaped like the real ones: few blue-to-red skins, dozens of ★ variants at 0.26 % in all. */
  const kase = [
    ...Array.from({ length: 7 }, (_, i) => ({ id: `blue${i}`, special: false, weight: 79.92 / 7 })),
    ...Array.from({ length: 5 }, (_, i) => ({ id: `purple${i}`, special: false, weight: 15.98 / 5 })),
    ...Array.from({ length: 3 }, (_, i) => ({ id: `pink${i}`, special: false, weight: 3.2 / 3 })),
    ...Array.from({ length: 2 }, (_, i) => ({ id: `red${i}`, special: false, weight: 0.64 / 2 })),
    ...Array.from({ length: 40 }, (_, i) => ({ id: `knife${i}`, special: true, weight: 0.26 / 40 })),
  ];
  const weight = (i: { weight: number }) => i.weight;
  const special = (i: { special: boolean }) => i.special;
  const tier = (i: { id: string }) => i.id.replace(/\d+$/, '');

  it('gives ★ items about as many of the 3000 slots as their odds (not one slot per case entry)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const strip = buildStrip(kase, weight, null, seeded(seed), tier);
      const share = countSlots(strip, special) / strip.length;
      // 0.26 % of 3000 slots is 7.8: the tier gets 7 or 8, never the 70 % that one slot per
      // entry gave this case (40 of 57 entries are knives).
      expect(share, `seed ${seed}`).toBeGreaterThanOrEqual(7 / 3000);
      expect(share, `seed ${seed}`).toBeLessThanOrEqual(8 / 3000);
    }
  });

  it('fills every tier within one slot of its odds, and every item within one slot of its share', () => {
    const strip = buildStrip(kase, weight, null, seeded(5), tier);
    const counts = new Map<string, number>();
    const tiers = new Map<string, number>();
    for (let i = 0; i < strip.length; i++) {
      const it = strip.at(i);
      counts.set(it.id, (counts.get(it.id) ?? 0) + 1);
      tiers.set(tier(it), (tiers.get(tier(it)) ?? 0) + 1);
    }
    const total = kase.reduce((s, i) => s + i.weight, 0);
    for (const item of kase) {
      const expected = (item.weight / total) * 3000;
      expect(Math.abs((counts.get(item.id) ?? 0) - expected), item.id).toBeLessThan(1.5);
    }
    for (const [name, n] of tiers) {
      const expected = (kase.filter((i) => tier(i) === name).reduce((s, i) => s + i.weight, 0) / total) * 3000;
      expect(Math.abs(n - expected), name).toBeLessThan(1);
    }
  });

  it('arranges nothing around the landing slot: the winner changes slot 1500 and no other', () => {
    const idle = buildStrip(kase, weight, null, seeded(8), tier);
    const knife = kase.find(special)!;
    const spun = buildStrip(kase, weight, knife, seeded(8), tier);
    for (let i = 0; i < 3000; i++) if (i !== 1500) expect(spun.at(i)).toBe(idle.at(i));
    expect(spun.at(1500)).toBe(knife);
  });

  it('over many strips, the neighbours of the landing are ★ about as often as anywhere', () => {
    let near = 0;
    const n = 2000;
    for (let seed = 1; seed <= n; seed++) {
      const strip = buildStrip(kase, weight, kase[0]!, seeded(seed), tier);
      for (const d of [-2, -1, 1, 2]) if (special(strip.at(1500 + d))) near += 1;
    }
    // 4 neighbours × 2000 strips × 0.26 % ≈ 21; one slot per entry would give about 5 600.
    expect(near / (4 * n)).toBeLessThan(0.0026 * 3);
  });

  it('splits slots by the largest remainder: exact totals, nothing for a zero weight', () => {
    const q = slotQuotas([1, 1, 1], 10, seeded(2));
    expect(q.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...q) - Math.min(...q)).toBeLessThanOrEqual(1);
    expect(slotQuotas([3, 0, 1], 8, seeded(2))).toEqual([6, 0, 2]);
    // No weights at all: every item weighs the same.
    expect(slotQuotas([0, 0], 4, seeded(2))).toEqual([2, 2]);
  });

  it('without tiers, the whole case shares one largest-remainder split', () => {
    const q = groupedQuotas([2, 1, 1], ['', '', ''], 8, seeded(1));
    expect(q).toEqual([4, 2, 2]);
    const byTier = groupedQuotas([1, 1, 2], ['x', 'x', 'y'], 8, seeded(1));
    expect(byTier[2]).toBe(4);
    expect(byTier[0]! + byTier[1]!).toBe(4);
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

describe('the node pool', () => {
  const slot = 104;
  const viewport = 490;

  it('never puts two slots in view on one node, at any offset of a spin', () => {
    const pool = poolSize(slot, viewport, 1);
    const from = offsetForSlot(START_SLOT, slot, viewport);
    const to = offsetForSlot(WIN_SLOT, slot, viewport);
    for (let t = 0; t <= 520; t += 2) {
      const { first, last } = visibleRange(offsetAt(t, from, to), slot, viewport, 1);
      const nodes = new Set<number>();
      for (let s = first; s <= last; s++) nodes.add(nodeForSlot(s, pool));
      expect(nodes.size).toBe(last - first + 1);
    }
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
});
