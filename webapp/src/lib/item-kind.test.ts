import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { itemKind, silhouetteDataUrl, SILHOUETTES, type ItemKind } from './item-kind';

interface CatalogRow {
  id: string;
  weapon: { en: string };
  rarity: string;
}

const items = (JSON.parse(readFileSync(new URL('../../../data/catalog/items.json', import.meta.url), 'utf8')) as { items: CatalogRow[] }).items;

/** Valve's own grouping of the catalog's weapons. */
const EXPECTED: Record<string, ItemKind> = {
  'AK-47': 'rifle', AUG: 'rifle', FAMAS: 'rifle', 'Galil AR': 'rifle', M4A4: 'rifle', 'M4A1-S': 'rifle', 'SG 553': 'rifle',
  AWP: 'sniper', 'SSG 08': 'sniper', 'SCAR-20': 'sniper', G3SG1: 'sniper',
  M249: 'mg', Negev: 'mg',
  Nova: 'shotgun', XM1014: 'shotgun', 'Sawed-Off': 'shotgun', 'MAG-7': 'shotgun',
  'MAC-10': 'smg', MP9: 'smg', MP7: 'smg', 'MP5-SD': 'smg', 'UMP-45': 'smg', P90: 'smg', 'PP-Bizon': 'smg',
  'Glock-18': 'pistol', 'USP-S': 'pistol', P2000: 'pistol', P250: 'pistol', 'Five-SeveN': 'pistol', 'Tec-9': 'pistol',
  'CZ75-Auto': 'pistol', 'Desert Eagle': 'pistol', 'Dual Berettas': 'pistol', 'R8 Revolver': 'pistol', 'Zeus x27': 'pistol',
};
const expected = (weapon: string): ItemKind => EXPECTED[weapon] ?? (/Gloves|Wraps/.test(weapon) ? 'gloves' : 'knife');

describe('itemKind', () => {
  it('knows every weapon of the catalog from its id, and from its Steam name', () => {
    for (const it of items) {
      const want = expected(it.weapon.en);
      expect(itemKind({ id: it.id }), it.id).toBe(want);
      expect(itemKind({ weaponId: it.id, id: 7 }), it.id).toBe(want);
      const star = it.rarity === 'extraordinary' ? '★ ' : '';
      expect(itemKind({ marketHashName: `${star}StatTrak™ ${it.weapon.en} | Finish (Field-Tested)` }), it.weapon.en).toBe(want);
    }
  });

  it('calls any other ★ item a knife and anything unknown a rifle', () => {
    expect(itemKind({ marketHashName: '★ Something New | Fade' })).toBe('knife');
    expect(itemKind({ name: 'Керамбит' })).toBe('rifle');
    expect(itemKind(null)).toBe('rifle');
  });

  it('draws a data: silhouette in the rarity colour, grey without one', () => {
    expect(decodeURIComponent(silhouetteDataUrl('knife', 'covert'))).toContain("fill='#eb4b4b'");
    expect(decodeURIComponent(silhouetteDataUrl('case'))).toContain("fill='#808b99'");
    expect(new Set(Object.values(SILHOUETTES)).size).toBe(9);
  });
});
