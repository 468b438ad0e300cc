/**
 * A fresh demo shop's ribbon (issue 32, point 10): until anyone opens a case, the demo shows a
 * few example drops, drawn by each case's published odds (so they say what the odds say) and
 * labelled as demo examples. Never in a real shop, never mixed with real drops.
 */
import type { FeedDrop } from './connection';

interface DemoItem {
  id: string;
  name?: string;
  variant?: string;
  nameRu?: string;
  variantRu?: string;
  rarity?: string;
  iconUrl?: string;
  icon_url?: string;
  weight?: number;
  chance?: number;
  wearMin?: number | null;
  wearMax?: number | null;
}

interface DemoCase {
  id: string;
  name: string;
  nameRu?: string;
  items: readonly DemoItem[];
}

/** An example drop: a feed drop marked `demo`. */
export type DemoDrop = FeedDrop & { demo: true };

const weightOf = (i: DemoItem) => {
  const w = typeof i.weight === 'number' && Number.isFinite(i.weight) ? i.weight : i.chance;
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 0;
};

function pick(items: readonly DemoItem[], rng: () => number): DemoItem | null {
  const total = items.reduce((s, i) => s + weightOf(i), 0);
  if (total <= 0) return null;
  let roll = Math.min(Math.max(rng(), 0), 1 - Number.EPSILON) * total;
  for (const i of items) {
    roll -= weightOf(i);
    if (weightOf(i) > 0 && roll < 0) return i;
  }
  return null;
}

const BANDS: ReadonlyArray<[number, string]> = [
  [0.07, 'Factory New'],
  [0.15, 'Minimal Wear'],
  [0.38, 'Field-Tested'],
  [0.45, 'Well-Worn'],
  [1.01, 'Battle-Scarred'],
];

/** `count` example drops over `cases`, each case drawn in turn, each item by the case's odds. */
export function demoDrops(cases: readonly DemoCase[], lang: string, rng: () => number, count = 6): DemoDrop[] {
  const usable = cases.filter((c) => c.items.some((i) => weightOf(i) > 0));
  const out: DemoDrop[] = [];
  const ru = lang === 'ru';
  for (let k = 0; k < count && usable.length > 0; k++) {
    const c = usable[k % usable.length]!;
    const item = pick(c.items, rng);
    if (!item) continue;
    const weapon = (ru && item.nameRu) || item.name || item.id;
    const finish = (ru && item.variantRu) || item.variant || '';
    const special = item.rarity === 'extraordinary';
    const lo = item.wearMin;
    const hi = item.wearMax;
    const exterior = typeof lo === 'number' && typeof hi === 'number' && lo < hi ? BANDS.find(([to]) => lo + rng() * (hi - lo) < to)?.[1] : undefined;
    out.push({
      id: -(k + 1),
      demo: true,
      item: {
        name: `${special ? '★ ' : ''}${finish ? `${weapon} | ${finish}` : weapon}`,
        marketHashName: '',
        rarity: item.rarity ?? 'milspec',
        image: item.iconUrl ?? item.icon_url ?? '',
        exterior,
        statTrak: false,
      },
      case: { id: c.id, name: (ru && c.nameRu) || c.name },
      openedAt: new Date(0).toISOString(),
    });
  }
  return out;
}
