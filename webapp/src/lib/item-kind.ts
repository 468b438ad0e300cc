/**
 * What kind of thing a picture shows, for the silhouette drawn when the picture is missing or
 * cannot load (issue 32, point 8): a pistol looks like a pistol, a knife like a knife.
 */
export type ItemKind = 'rifle' | 'pistol' | 'smg' | 'shotgun' | 'sniper' | 'mg' | 'knife' | 'gloves' | 'case';

/** Weapons by kind, as their English names read with only letters and digits (`AK-47` → `ak47`). */
const WEAPONS: Array<[ItemKind, string[]]> = [
  ['gloves', ['gloves', 'handwraps']],
  ['sniper', ['awp', 'ssg08', 'scar20', 'g3sg1']],
  ['mg', ['m249', 'negev']],
  ['shotgun', ['nova', 'xm1014', 'sawedoff', 'mag7']],
  ['smg', ['mac10', 'mp9', 'mp7', 'mp5sd', 'ump45', 'p90', 'ppbizon']],
  ['pistol', ['glock18', 'usps', 'p2000', 'p250', 'fiveseven', 'tec9', 'cz75auto', 'deserteagle', 'dualberettas', 'r8revolver', 'zeusx27']],
  ['rifle', ['ak47', 'm4a4', 'm4a1s', 'galilar', 'famas', 'aug', 'sg553']],
  ['knife', ['bayonet', 'm9bayonet', 'karambit', 'shadowdaggers', 'knife', 'kukri', 'navaja', 'stiletto', 'talon', 'ursus', 'falchion', 'bowie']],
];

const squash = (s: string) => s.toLowerCase().replace(/stattrak|souvenir/g, '').replace(/[^a-z0-9]/g, '');

function kindOf(text: string | undefined): ItemKind | null {
  if (!text) return null;
  // A Steam name's weapon part: `★ StatTrak™ Karambit | Doppler (Factory New)` → `karambit`.
  const weapon = text.split('|')[0] ?? '';
  const s = squash(weapon);
  if (!s) return null;
  for (const [kind, names] of WEAPONS) {
    if (names.some((n) => s.startsWith(n) || ((kind === 'gloves' || kind === 'knife') && s.includes(n)))) return kind;
  }
  // Every other ★ item is a knife (gloves are matched above).
  return weapon.includes('★') ? 'knife' : null;
}

/**
 * An item's kind from what the API gives: its Steam name (always English), its catalog id
 * (`ak47-redline`, `karambit-doppler`: the English weapon first) or its English weapon name.
 * Unknown: a rifle, the commonest.
 */
export function itemKind(i: { marketHashName?: string; market_hash_name?: string; weaponId?: string; id?: string | number; name?: string } | null | undefined): ItemKind {
  if (!i) return 'rifle';
  return (
    kindOf(i.marketHashName ?? i.market_hash_name) ??
    kindOf(i.weaponId) ??
    kindOf(typeof i.id === 'string' ? i.id : undefined) ??
    kindOf(i.name) ??
    'rifle'
  );
}

/** One flat shape per kind, in a 64 × 24 box (even-odd fill: a case's band is a gap). */
export const SILHOUETTES: Record<ItemKind, string> = {
  rifle: 'M2 9h30l3-3h9l2 3h14v4h-6l-1 2H38l-2 3h-5l-1 4h-7l2-6H8l-2 2H2z',
  pistol: 'M18 5h30v6H33l-1 3h-4l-2 8h-7l3-11h-4z',
  smg: 'M6 8h38V6h6v2h8v4H40v9h-5v-9h-4l-2 5h-5l1-5H6z',
  shotgun: 'M1 9h36l2-2h14l2 2h7v3H44l-3 2H31v-2h-8l-3 5h-6l2-5H1z',
  sniper: 'M1 11h27V9h5V5h14v4h4v2h12v3h-9l-2 3h-6l-2 5h-6l2-8H1z',
  mg: 'M2 7h30l2-2h12l2 2h14v6H46v8h-8v-8h-3l-3 6h-6l2-6H14l-3 6H7l3-6H2z',
  knife: 'M3 13C12 7 26 5 38 7v6zm36-7h4v9h-4zm5 2h14l3 2-3 2H44z',
  gloves: 'M25 23V12l1-8h3l1 6 1-8h3l1 8 1-7h3v8l2-4h3l-3 9-3 3v4z',
  case: 'M20 7h24a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H20a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zm7-4h10v4h-2V5h-6v2h-2zM18 13h28v2H18z',
};

/** theme.css's rarity palette, for pictures drawn outside CSS (the roulette's data: images). */
const RARITY_HEX: Record<string, string> = {
  consumer: '#b0c3d9',
  industrial: '#5e98d9',
  milspec: '#4b69ff',
  restricted: '#8847ff',
  classified: '#d32ce6',
  covert: '#eb4b4b',
  extraordinary: '#e4ae39',
  contraband: '#e4ae39',
};

/** The silhouette as a `data:` SVG in the rarity's colour (grey without one). */
export function silhouetteDataUrl(kind: ItemKind, rarity?: string | null): string {
  const fill = RARITY_HEX[rarity ?? ''] ?? '#808b99';
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 24'><path fill='${fill}' fill-rule='evenodd' d='${SILHOUETTES[kind]}'/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
