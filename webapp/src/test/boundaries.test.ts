/**
 * The import-boundary lint (eslint.config.js, `npm run lint`) fails on each kind of violation
 * and passes the imports the app is built from. Each case lints one line as if it were the
 * named file (the file need not exist).
 */
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const webapp = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: webapp });

/** The rules that fire when `code` is the content of `file` (a path under webapp/). */
async function fired(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${webapp}/${file}` });
  if (!result) throw new Error(`no lint result for ${file}`);
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const BOUNDARY_RULES = ['no-restricted-imports', 'no-restricted-syntax'];
/** A test that `code` in `file` breaks a boundary (and nothing else fires, e.g. a parse error). */
const rejects = (file: string, code: string) => async () => {
  const rules = await fired(file, code);
  expect(rules.length).toBeGreaterThan(0);
  for (const rule of rules) expect(BOUNDARY_RULES).toContain(rule);
};

describe('lib/ and i18n/ import no feature, page or app', () => {
  it('rejects a feature entry from lib/', rejects('src/lib/example.ts', "import { useSettings } from '../features/settings';"));
  it('rejects a feature file from i18n/', rejects('src/i18n/example.ts', "import { useSettings } from '../features/settings/store';"));
  it('rejects a type-only import', rejects('src/lib/example.ts', "import type { Theme } from '../features/settings';"));
  it('rejects pages/', rejects('src/lib/example.ts', "import { HomePage } from '../pages/home';"));
  it('rejects app/', rejects('src/i18n/example.ts', "import { boot } from '../app/boot';"));
  it('accepts lib/ and i18n/ importing each other', async () => {
    expect(await fired('src/lib/example.ts', "import { t } from '../i18n';")).toEqual([]);
    expect(await fired('src/i18n/example.ts', "import { useSettings } from '../lib/settings';")).toEqual([]);
  });
});

describe('other features are reached only through their entry', () => {
  it('rejects a page importing a feature file', rejects('src/pages/example/index.tsx', "import { useCases } from '../../features/cases/store';"));
  it('rejects a deep feature component', rejects('src/app/example.tsx', "import { Roulette } from '../features/cases/components/roulette';"));
  it('rejects a re-export of a feature file', rejects('src/pages/example/index.tsx', "export { useCases } from '../../features/cases/store';"));
  it('rejects import() of a feature file', rejects('src/start.tsx', "void import('./features/inventory/store');"));
  it('rejects a feature reaching into another one', rejects('src/features/inventory/example.ts', "import { rarityColor } from '../cases/rarity';"));
  it(
    'rejects it from a feature component too',
    rejects('src/features/inventory/components/example.tsx', "import { TokenAmount } from '../../cases/components/token-amount';"),
  );
  it('rejects a feature importing a page', rejects('src/features/inventory/example.ts', "import { HomePage } from '../../pages/home';"));
  it('rejects files nested deeper than the rules are written for', rejects('src/features/a/b/c/d/e/example.ts', "import { x } from './x';"));

  it('accepts the entry, with or without /index', async () => {
    expect(await fired('src/pages/example/index.tsx', "import { useCases } from '../../features/cases';")).toEqual([]);
    expect(await fired('src/pages/example/index.tsx', "import { useCases } from '../../features/cases/index';")).toEqual([]);
    expect(await fired('src/start.tsx', "void import('./features/inventory');")).toEqual([]);
    expect(await fired('src/features/inventory/example.ts', "import { rarityColor } from '../cases';")).toEqual([]);
    expect(await fired('src/features/inventory/components/example.tsx', "import { TokenAmount } from '../../cases';")).toEqual([]);
  });
  it('accepts relative imports inside a feature', async () => {
    expect(await fired('src/features/inventory/example.ts', "import { useInventory } from './store';")).toEqual([]);
    expect(await fired('src/features/inventory/components/example.tsx', "import { priceValue } from '../status';")).toEqual([]);
    expect(await fired('src/features/inventory/components/example.tsx', "import { api } from '../../../lib/api-client';")).toEqual([]);
  });
});
