/**
 * Opening several cases at once (issue 24, point 3), free of React and fetch:
 * the ×1…×5 choice and its total, the items of an answer in draw order, and
 * the result screen's keep / sell decisions over all of them.
 */
import { winTier, type WinTier } from './celebrate';
import type { OpenAnswer, OpenFair } from './open-case';

/** The server's limit: `count` is 1–5. */
export const MAX_OPEN_COUNT = 5;
export const OPEN_COUNTS = [1, 2, 3, 4, 5] as const;

/** A count the server accepts: an integer 1–5 (anything else is 1). */
export function openCount(n: unknown): number {
  const v = typeof n === 'string' ? Number(n) : n;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return 1;
  return Math.min(v, MAX_OPEN_COUNT);
}

/** What `count` cases at `price` cost, in tokens with at most 2 decimals (no float residue). */
export function totalPrice(price: number, count: number): number {
  return Math.round(price * 100 * openCount(count)) / 100;
}

/** One drawn item and its proof. */
export interface Drawn<Item> {
  item: Item;
  fair?: OpenFair;
}

/** Every item of an open in draw order: `items` when the server sent several, else the one `item`. */
export function drawnItems<Item>(answer: OpenAnswer<Item>): Drawn<Item>[] {
  if (answer.items && answer.items.length > 0) return answer.items;
  return [{ item: answer.item, fair: answer.fair }];
}

/** The nonce the next open will use: one past the last drawn. */
export function nextNonce(drawn: ReadonlyArray<Drawn<unknown>>): number | null {
  const nonces = drawn.map((d) => d.fair?.nonce).filter((n): n is number => typeof n === 'number');
  return nonces.length ? Math.max(...nonces) + 1 : null;
}

/** A won skin on the result screen: still to decide, kept, being sold, sold. */
export type Choice = 'open' | 'kept' | 'selling' | 'sold';

export interface Entry<Item> {
  item: Item;
  choice: Choice;
}

export const entriesOf = <Item>(items: readonly Item[]): Entry<Item>[] => items.map((item) => ({ item, choice: 'open' }));

/** The skins still waiting for keep or sell. */
export const undecided = <Item>(entries: ReadonlyArray<Entry<Item>>): Entry<Item>[] => entries.filter((e) => e.choice === 'open');

/** Every skin kept or sold (none waiting, none mid-sale). */
export const allDecided = <Item>(entries: ReadonlyArray<Entry<Item>>): boolean =>
  entries.every((e) => e.choice === 'kept' || e.choice === 'sold');

/** What the undecided skins fetch together ("sell all for N"), to the cent. */
export function sellAllValue<Item>(entries: ReadonlyArray<Entry<Item>>, value: (item: Item) => number): number {
  return Math.round(undecided(entries).reduce((sum, e) => sum + value(e.item) * 100, 0)) / 100;
}

/** The entry at `index` moved to `choice` (a new array; the others unchanged). */
export function choose<Item>(entries: ReadonlyArray<Entry<Item>>, index: number, choice: Choice): Entry<Item>[] {
  return entries.map((e, i) => (i === index ? { ...e, choice } : e));
}

/** Keep all: every undecided skin is kept. */
export const keepRest = <Item>(entries: ReadonlyArray<Entry<Item>>): Entry<Item>[] =>
  entries.map((e) => (e.choice === 'open' ? { ...e, choice: 'kept' } : e));

/**
 * Sell all: one sale call per undecided skin, one after another (the server takes one item per
 * call), reporting each step so the screen can follow. A refused sale leaves its skin to decide
 * again; the others go on. Answers the entries at the end and how many were sold.
 */
export async function sellEach<Item>(
  entries: ReadonlyArray<Entry<Item>>,
  sell: (item: Item) => Promise<boolean>,
  onChange: (entries: Entry<Item>[]) => void,
): Promise<{ entries: Entry<Item>[]; sold: number }> {
  let now = entries.slice();
  let sold = 0;
  for (let i = 0; i < now.length; i++) {
    if (now[i]!.choice !== 'open') continue;
    now = choose(now, i, 'selling');
    onChange(now);
    const ok = await sell(now[i]!.item);
    if (ok) sold++;
    now = choose(now, i, ok ? 'sold' : 'open');
    onChange(now);
  }
  return { entries: now, sold };
}

/**
 * The headline of several opened at once (issue 32, point 5): it celebrates only what came back
 * at least as much as was paid. `ratio` is the skins' value over what the open cost (null when
 * unknown); below 1 the headline is a plain count ("Your 5 skins") and the tier is at most
 * `fair`, whatever the best skin's rarity. At or above 1 the best skin lifts it as before.
 */
export function resultsHeadline(ratio: number | null, best: { ratio: number | null; rarity?: string | null } | null): { key: 'results.title' | 'results.titleBelow'; tier: WinTier } {
  if (ratio !== null && ratio < 1) return { key: 'results.titleBelow', tier: ratio < 0.5 ? 'small' : 'fair' };
  return { key: 'results.title', tier: best ? winTier(best.ratio, best.rarity) : 'fair' };
}
