// Writes data/catalog/items.json and data/catalog/cases.json from @ianlucas/cs2-lib (pinned in
// package.json). Run by an operator after changing CASES below or upgrading the library:
//
//   cd scripts/catalog && npm ci && node import.mjs            # writes ../../data/catalog/
//   node import.mjs --out /tmp/catalog                          # somewhere else
//
// It never runs at start-up or in tests: the generated files are committed. Prices are not written
// here: every variant's default price comes from data/catalog/prices.json and each case's price is
// computed by the server for the return-to-player target (see data/catalog/README.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CS2_ITEMS, CS2ContainerType, CS2Economy } from '@ianlucas/cs2-lib';
import { english, russian } from '@ianlucas/cs2-lib/translations';

/** The weapon cases the store sells, in store order (library ids; names for the reader). */
const CASES = [
  [13314, 'Fever Case'],
  [12453, 'Gallery Case'],
  [11422, 'Kilowatt Case'],
  [9506, 'Revolution Case'],
  [9503, 'Recoil Case'],
  [9501, 'Dreams & Nightmares Case'],
  [9442, 'Operation Riptide Case'],
  [9437, 'Snakebite Case'],
  [9434, 'Operation Broken Fang Case'],
  [9432, 'Prisma 2 Case'],
  [9425, 'CS20 Case'],
  [9422, 'Prisma Case'],
  [9419, 'Clutch Case'],
  [9409, 'Spectrum 2 Case'],
  [9408, 'Operation Hydra Case'],
  [9406, 'Glove Case'],
  [9396, 'Gamma 2 Case'],
  [9237, 'Operation Wildfire Case'],
  [9205, 'Shadow Case'],
  [9175, 'Falchion Case'],
  [9143, 'Operation Breakout Weapon Case'],
  [9142, 'Huntsman Weapon Case'],
];

/** The library's rarity colours in our words. Weapon-case contents use the middle four; every
 * item listed in a case's `specials` (★ knives and gloves) is `extraordinary` whatever its colour. */
const RARITY_BY_COLOUR = {
  '#b0c3d9': 'consumer',
  '#5e98d9': 'industrial',
  '#4b69ff': 'milspec',
  '#8847ff': 'restricted',
  '#d32ce6': 'classified',
  '#eb4b4b': 'covert',
  '#e4ae39': 'contraband',
};
const TIER_ORDER = ['milspec', 'restricted', 'classified', 'covert', 'extraordinary'];

const here = dirname(fileURLToPath(import.meta.url));
const outArg = process.argv.indexOf('--out');
const outDir = resolve(outArg > 0 ? process.argv[outArg + 1] : join(here, '../../data/catalog'));

CS2Economy.use({ items: CS2_ITEMS, language: english });
const byLibId = new Map(CS2_ITEMS.map((i) => [i.id, i]));

function fail(message) {
  console.error(`import: ${message}`);
  process.exit(1);
}

/** Lowercase ASCII words of a name: accents dropped, other scripts and apostrophes removed. */
function words(name) {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A weapon's id part as today's ids write it: a part that is all digits or a single character
 * joins the one before (`AK-47` → `ak47`, `USP-S` → `usps`, `SSG 08` → `ssg08`), others are
 * joined by `-` (`Desert Eagle` → `desert-eagle`, `CZ75-Auto` → `cz75-auto`). */
function weaponSlug(name) {
  const parts = words(name);
  let out = parts[0] ?? '';
  for (const p of parts.slice(1)) out += /^[0-9]+$/.test(p) || p.length === 1 ? p : `-${p}`;
  return out;
}

const slug = (name) => words(name).join('-');

/** `weapon | finish` of a translation, the container prefix and the ★ dropped. */
function splitName(name) {
  const clean = name.replace(/^★\s*/, '');
  const at = clean.indexOf(' | ');
  return at < 0 ? [clean, ''] : [clean.slice(0, at), clean.slice(at + 3)];
}

function translated(libId) {
  const en = english[libId]?.name;
  const ru = russian[libId]?.name;
  if (!en || !ru) fail(`library item ${libId} has no English or Russian name`);
  return { en, ru };
}

const items = new Map(); // our id -> item
const idByName = new Map(); // English Steam name -> our id (Doppler phases collapse here)

/** Adds one library skin (once per Steam name) and answers our id. */
function addItem(libId, special) {
  const lib = byLibId.get(libId);
  if (!lib) fail(`library item ${libId} is missing`);
  const names = translated(libId);
  const key = `${special ? '★ ' : ''}${names.en}`;
  const known = idByName.get(key);
  if (known) {
    const it = items.get(known);
    // A Doppler's phases share a Steam name: keep one item, pictured by its lowest "Phase N".
    if (/^Phase/.test(lib.altName ?? '') && (!/^Phase/.test(it.phase ?? '') || libId < it.lib)) {
      Object.assign(it, { lib: libId, image: lib.image, phase: lib.altName });
    }
    return known;
  }
  const [weaponEn, finishEn] = splitName(names.en);
  const [weaponRu, finishRu] = splitName(names.ru);
  const rarity = special ? 'extraordinary' : RARITY_BY_COLOUR[lib.rarity];
  if (!TIER_ORDER.includes(rarity)) fail(`${names.en}: rarity ${lib.rarity} is not a weapon-case tier`);
  let id = finishEn ? `${weaponSlug(weaponEn)}-${slug(finishEn)}` : `${weaponSlug(weaponEn)}-vanilla`;
  // Two finishes that differ only in a script we drop (Sunset Storm 壱 / 弐) keep apart by library id.
  if (items.has(id)) id = `${id}-${libId}`;
  if (!/^[a-z0-9-]{1,40}$/.test(id)) fail(`${names.en}: id ${id} breaks the id rules`);
  const hasWear = typeof lib.wearMin === 'number' && typeof lib.wearMax === 'number';
  if (hasWear !== Boolean(finishEn)) fail(`${names.en}: a wear range is expected exactly for painted items`);
  items.set(id, {
    id,
    lib: libId,
    rarity,
    weapon: { en: weaponEn, ru: weaponRu },
    finish: { en: finishEn, ru: finishRu },
    ...(hasWear ? { wearMin: lib.wearMin, wearMax: lib.wearMax } : {}),
    statTrak: CS2Economy.getById(libId).hasStatTrak(),
    image: lib.image,
    phase: lib.altName,
  });
  idByName.set(key, id);
  return id;
}

const cases = [];
for (const [libId, label] of CASES) {
  const lib = byLibId.get(libId);
  if (!lib || lib.type !== 'case' || lib.containerType !== CS2ContainerType.WeaponCase) {
    fail(`${label} (${libId}) is not a weapon case in this library version`);
  }
  const names = translated(libId);
  const name = {
    en: names.en.replace(/^Container \| /, ''),
    ru: names.ru.replace(/^Контейнер \| /, ''),
  };
  const id = slug(name.en.replace(/( Weapon)? Case$/, ''));
  const entries = [
    ...lib.contents.map((i) => addItem(i, false)),
    ...(lib.specials ?? []).map((i) => addItem(i, true)),
  ];
  const unique = [...new Set(entries)];
  const tier = (i) => TIER_ORDER.indexOf(items.get(i).rarity);
  unique.sort((a, b) => tier(a) - tier(b)); // stable: library order within a tier
  cases.push({ id, lib: libId, name, image: lib.image, items: unique });
}
if (new Set(cases.map((c) => c.id)).size !== cases.length) fail('two cases share an id');

const itemList = [...items.values()]
  .sort((a, b) => a.id.localeCompare(b.id))
  .map(({ phase, ...rest }) => rest);

// One object a line: small files, readable diffs.
const lines = (key, rows) => `{"${key}": [\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
mkdirSync(outDir, { recursive: true });
const source = `@ianlucas/cs2-lib ${JSON.parse(
  (await import('node:fs')).readFileSync(join(here, 'node_modules/@ianlucas/cs2-lib/package.json'), 'utf8'),
).version}`;
writeFileSync(join(outDir, 'items.json'), lines('items', itemList).replace('{"items"', `{"source": ${JSON.stringify(source)}, "items"`));
writeFileSync(join(outDir, 'cases.json'), lines('cases', cases).replace('{"cases"', `{"source": ${JSON.stringify(source)}, "cases"`));
console.log(`import: ${cases.length} cases, ${itemList.length} items from ${source} -> ${outDir}`);
