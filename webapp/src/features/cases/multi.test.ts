import { describe, expect, it } from 'vitest';

import {
  allDecided,
  choose,
  drawnItems,
  entriesOf,
  keepRest,
  nextNonce,
  openCount,
  resultsHeadline,
  sellAllValue,
  sellEach,
  totalPrice,
  undecided,
} from './multi';

const fair = (nonce: number) => ({ serverSeedHash: 'h', clientSeed: 'c', nonce, roll: nonce * 7 });

describe('choosing how many to open', () => {
  it('accepts 1 to 5 and turns anything else into 1 or 5', () => {
    expect([1, 2, 3, 4, 5].map(openCount)).toEqual([1, 2, 3, 4, 5]);
    expect(openCount('3')).toBe(3);
    expect(openCount(9)).toBe(5);
    for (const bad of [0, -2, 2.5, NaN, null, undefined, 'x']) expect(openCount(bad)).toBe(1);
  });

  it('prices the whole count to the cent, without float residue', () => {
    expect(totalPrice(150, 1)).toBe(150);
    expect(totalPrice(150, 3)).toBe(450);
    expect(totalPrice(0.1, 3)).toBe(0.3);
    expect(totalPrice(12.35, 5)).toBe(61.75);
  });
});

describe('the items of an answer', () => {
  it('are the server’s items in draw order when it opened several', () => {
    const items = [1, 2, 3].map((id) => ({ item: { id }, fair: fair(9 + id) }));
    const drawn = drawnItems({ item: { id: 1 }, balance: 5, fair: fair(10), items });
    expect(drawn.map((d) => d.item.id)).toEqual([1, 2, 3]);
    expect(nextNonce(drawn)).toBe(13);
  });

  it('are the one item of a single open', () => {
    const drawn = drawnItems({ item: { id: 7 }, balance: 5, fair: fair(4) });
    expect(drawn).toEqual([{ item: { id: 7 }, fair: fair(4) }]);
    expect(nextNonce(drawn)).toBe(5);
    expect(nextNonce(drawnItems({ item: { id: 7 }, balance: 5 }))).toBeNull();
  });
});

describe('the result screen of several', () => {
  const items = [
    { id: 1, price: 10 },
    { id: 2, price: 2.5 },
    { id: 3, price: 0.35 },
  ];
  const value = (i: { price: number }) => i.price;

  it('keeps one, sells one, and offers the rest together', () => {
    let e = entriesOf(items);
    expect(sellAllValue(e, value)).toBe(12.85);
    e = choose(e, 0, 'kept');
    e = choose(e, 2, 'sold');
    expect(undecided(e).map((x) => x.item.id)).toEqual([2]);
    expect(sellAllValue(e, value)).toBe(2.5);
    expect(allDecided(e)).toBe(false);
    expect(allDecided(keepRest(e))).toBe(true);
    expect(keepRest(e).map((x) => x.choice)).toEqual(['kept', 'kept', 'sold']);
  });

  it('sells every undecided skin with one call each, in order, and leaves a refused one to decide again', async () => {
    const calls: number[] = [];
    const seen: string[][] = [];
    const start = choose(entriesOf(items), 0, 'kept');
    const { entries, sold } = await sellEach(
      start,
      async (item) => {
        calls.push(item.id);
        return item.id !== 3;
      },
      (now) => seen.push(now.map((x) => x.choice)),
    );
    expect(calls).toEqual([2, 3]);
    expect(sold).toBe(1);
    expect(entries.map((x) => x.choice)).toEqual(['kept', 'sold', 'open']);
    expect(seen[0]).toEqual(['kept', 'selling', 'open']);
    expect(start.map((x) => x.choice)).toEqual(['kept', 'open', 'open']);
  });
});

describe('the headline of several at once (issue 32, point 5)', () => {
  it('does not celebrate a loss: below what was paid it is a plain count, at most "fair"', () => {
    expect(resultsHeadline(0.11, { ratio: 0.3, rarity: 'covert' })).toEqual({ key: 'results.titleBelow', tier: 'small' });
    expect(resultsHeadline(0.8, { ratio: 2, rarity: 'milspec' })).toEqual({ key: 'results.titleBelow', tier: 'fair' });
  });

  it('celebrates a win as the best skin says', () => {
    expect(resultsHeadline(1.4, { ratio: 5, rarity: 'milspec' })).toEqual({ key: 'results.title', tier: 'big' });
    expect(resultsHeadline(1, { ratio: 1.2, rarity: 'restricted' }).key).toBe('results.title');
    expect(resultsHeadline(null, null)).toEqual({ key: 'results.title', tier: 'fair' });
  });
});
