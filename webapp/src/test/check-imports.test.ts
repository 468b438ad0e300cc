/**
 * scripts/check-imports.mjs (run by `npm run lint`) fails on a circle of imports, whichever kind
 * of import closes it, lists the files round it, and passes a tree without one. Each case writes
 * a few files to a temporary folder and runs the script on it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/check-imports.mjs');
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function check(files: Record<string, string>): { status: number | null; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  made.push(root);
  for (const [name, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), code);
  }
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the import-circle check', () => {
  it('passes a tree whose imports go one way', () => {
    const r = check({
      'a.ts': "import { b } from './b';\nexport const a = b;",
      'b.ts': "import data from './data.json';\nexport const b = data;",
      'data.json': '{}',
      'feature/index.ts': "export { a } from '../a';",
    });
    expect(r.out).toContain('No import circles');
    expect(r.status).toBe(0);
  });

  it('fails on two files importing each other, naming both', () => {
    const r = check({
      'lib/x.ts': "import { y } from './y';\nexport const x = () => y;",
      'lib/y.ts': "import { x } from './x';\nexport const y = () => x;",
    });
    expect(r.status).toBe(1);
    expect(r.out).toContain('lib/x.ts -> lib/y.ts -> lib/x.ts');
  });

  it('follows folders to their index and re-exports round a longer circle', () => {
    const r = check({
      'cases/index.ts': "export { open } from './api';",
      'cases/api.ts': "import type { Item } from '../inventory';\nexport const open = (i: Item) => i;",
      'inventory/index.ts': "export { Card } from './card';\nexport type Item = string;",
      'inventory/card.tsx': "import { open } from '../cases';\nexport const Card = () => open('x');",
    });
    expect(r.status).toBe(1);
    expect(r.out).toContain('cases/api.ts -> inventory/index.ts -> inventory/card.tsx -> cases/index.ts -> cases/api.ts');
  });

  it('counts a dynamic import() as an edge', () => {
    const r = check({
      'pages/case.tsx': "export const go = () => import('./result');",
      'pages/result.tsx': "import { go } from './case';\nexport const r = go;",
    });
    expect(r.status).toBe(1);
    expect(r.out).toContain('1 import circle');
  });

  it('ignores imports written in comments', () => {
    const r = check({
      'a.ts': "// import { b } from './b';\n/* import './b'; */\nexport const a = 1;",
      'b.ts': "import { a } from './a';\nexport const b = a;",
    });
    expect(r.status).toBe(0);
  });
});
