import { describe, expect, it } from 'vitest';

import { caseTitle, goodsLabel, groupByTier, priceRange, sortSkins } from './goods';

describe('goods', () => {
  it('names follow the language and fall back to English', () => {
    const ak = { name: 'AK-47', variant: 'Redline', nameRu: 'AK-47', variantRu: 'Красная линия' };
    expect(goodsLabel(ak, 'ru')).toBe('AK-47 | Красная линия');
    expect(goodsLabel(ak, 'en')).toBe('AK-47 | Redline');
    expect(goodsLabel({ name: 'Karambit', variant: '' }, 'ru')).toBe('Karambit');
    expect(caseTitle({ name: 'Fever Case', nameRu: 'Кейс «Лихорадка»' }, 'ru')).toBe('Кейс «Лихорадка»');
    expect(caseTitle({ name: 'Fever Case' }, 'ru')).toBe('Fever Case');
  });

  it('groups a case rarest first, specials on top, with each tier chance summed', () => {
    const groups = groupByTier([
      { id: 'a', rarity: 'milspec', chance: 40 },
      { id: 'b', rarity: 'covert', chance: 0.32 },
      { id: 'c', rarity: 'extraordinary', chance: 0.26 },
      { id: 'd', rarity: 'milspec', chance: 39.92 },
    ]);
    expect(groups.map((g) => g.rarity)).toEqual(['extraordinary', 'covert', 'milspec']);
    expect(groups[2].chance).toBeCloseTo(79.92);
  });

  it('a price range comes from the server, else from the one price it gives', () => {
    expect(priceRange({ priceMin: 9, priceMax: 150 })).toEqual([9, 150]);
    expect(priceRange({ tokenPrice: 25 })).toEqual([25, 25]);
    expect(priceRange({})).toBeNull();
  });

  it('sorts skins by price or by rarity, keeping the server order otherwise', () => {
    const items = [
      { id: 1, rarity: 'milspec', tokenPrice: 60 },
      { id: 2, rarity: 'covert', tokenPrice: 900 },
      { id: 3, rarity: 'extraordinary', tokenPrice: 25000, special: true },
      { id: 4, rarity: 'restricted', tokenPrice: 1200 },
    ];
    expect(sortSkins(items, 'recent').map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(sortSkins(items, 'price').map((i) => i.id)).toEqual([3, 4, 2, 1]);
    expect(sortSkins(items, 'rarity').map((i) => i.id)).toEqual([3, 2, 4, 1]);
  });
});
