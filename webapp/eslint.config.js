// The mini app's import boundaries (`npm run lint`; the rules are the whole lint, nothing else):
//  1. `lib/` and `i18n/` are the bottom layer: they import nothing from `features/`, `pages/`
//     or `app/`. Features import nothing from `pages/` or `app/` either.
//  2. A feature's public entry is `features/<name>/index.ts`. Any file outside the feature
//     imports `features/<name>` (or `features/<name>/index`), never a file inside it. Inside a
//     feature, relative imports are free.
// ESLint's `no-restricted-imports` matches the specifier as written, so a feature file's rule
// depends on how deep it sits: `../cases/store` from `features/inventory/actions.ts` and
// `../../cases/store` from `features/inventory/components/skin-card.tsx` both reach into
// another feature. The rule does not see `import()`; `no-restricted-syntax` repeats it there.
// src/test/boundaries.test.ts proves that each rule fails on a violation.
import tsParser from '@typescript-eslint/parser';

const ENTRY_ONLY = 'Reach a feature only through its entry: import `features/<name>`, not a file inside it.';
const BOTTOM_LAYER = 'lib/ and i18n/ import nothing from features/, pages/ or app/: move what they need down to lib/, or pass it in.';
const FEATURE_LAYER = 'A feature imports nothing from pages/ or app/.';
const TOO_DEEP = 'Feature folders nest at most four levels (eslint.config.js writes the rules per depth).';

/** `features/<name>/<anything but index>`, however the path to `features/` is written. */
const intoFeature = /(^|\/)features\/[^/]+\/(?!index$)/;
const intoUpperLayer = /^(\.\.\/)+(features|pages|app)(\/|$)/;
const intoPagesOrApp = /^(\.\.\/)+(pages|app)(\/|$)/;
/** From a file `depth` folders below `features/`: up to `features/`, then into another feature. */
const intoSiblingFeature = (depth) => new RegExp(`^(\\.\\./){${depth}}(?!\\.\\.)[^/]+/(?!index$)`);

/** The rules that forbid imports (static, re-exports and `import()`) matching any of `bans`. */
function forbid(...bans) {
  return {
    'no-restricted-imports': ['error', { patterns: bans.map(([re, message]) => ({ regex: re.source, message })) }],
    'no-restricted-syntax': [
      'error',
      // esquery ends a regex at the first `/`: write it as \x2F.
      ...bans.map(([re, message]) => ({ selector: `ImportExpression[source.value=/${re.source.replaceAll('\\/', '\\x2F').replaceAll('/', '\\x2F')}/]`, message })),
    ],
  };
}

const FEATURE_DEPTHS = [1, 2, 3, 4];

export default [
  { ignores: ['dist/', 'node_modules/'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tsParser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: forbid([intoFeature, ENTRY_ONLY]),
  },
  {
    files: ['src/lib/**/*.{ts,tsx}', 'src/i18n/**/*.{ts,tsx}'],
    rules: forbid([intoUpperLayer, BOTTOM_LAYER]),
  },
  ...FEATURE_DEPTHS.map((depth) => ({
    files: [`src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: forbid([intoFeature, ENTRY_ONLY], [intoSiblingFeature(depth), ENTRY_ONLY], [intoPagesOrApp, FEATURE_LAYER]),
  })),
  {
    files: [`src/features/*/${'*/'.repeat(FEATURE_DEPTHS.length)}**/*.{ts,tsx}`],
    rules: forbid([/./, TOO_DEEP]),
  },
];
