import { describe, expect, it } from 'vitest';

import { demoDrops } from './demo-drops';

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const kase = {
  id: 'c1',
  name: 'Revolution Case',
  nameRu: 'Кейс «Революция»',
  items: [
    { id: 'blue', name: 'MP9', variant: 'Featherweight', nameRu: 'MP9', variantRu: 'Пушинка', rarity: 'milspec', weight: 9974, wearMin: 0, wearMax: 1 },
    { id: 'knife', name: 'Karambit', variant: 'Fade', rarity: 'extraordinary', weight: 26, wearMin: 0, wearMax: 0.08 },
  ],
};

describe('demo drops for a fresh demo shop (issue 32, point 10)', () => {
  it('are marked as demo, named in the viewer’s language and drawn by the odds', () => {
    const drops = demoDrops([kase], 'ru', seeded(1), 6);
    expect(drops).toHaveLength(6);
    for (const d of drops) {
      expect(d.demo).toBe(true);
      expect(d.id).toBeLessThan(0);
      expect(d.case.name).toBe('Кейс «Революция»');
    }
    expect(drops.some((d) => d.item.name === 'MP9 | Пушинка')).toBe(true);
    // By the odds: over many draws the knife is as rare as its 0.26 %.
    const many = demoDrops([kase], 'en', seeded(7), 4000);
    const knives = many.filter((d) => d.item.name.startsWith('★')).length;
    expect(knives / many.length).toBeLessThan(0.0026 * 3);
  });

  it('draw nothing from a case without odds', () => {
    expect(demoDrops([{ id: 'x', name: 'X', items: [{ id: 'a' }] }], 'en', seeded(1))).toEqual([]);
  });
});
