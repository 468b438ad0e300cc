// The mini app's API types, generated from the server's OpenAPI document (`npm run api:types`).
//
// Runs `fragbox openapi` (the binary at FRAGBOX_BIN, else `cargo run -q -p fragbox -- openapi`
// from the checkout), turns the document into TypeScript with openapi-typescript and writes
// src/lib/api-types.gen.ts. With `--check` it writes nothing in the tree: it generates into a
// temp file and exits 1 when that differs from the committed one (scripts/test.sh runs it), so a
// change to a route's documented shape cannot land without the types the mini app compiles against.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import openapiTS, { astToString } from 'openapi-typescript';

const webapp = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(webapp, 'src/lib/api-types.gen.ts');
const check = process.argv.includes('--check');

const HEADER = `// GENERATED FILE: do not edit by hand.
// The types of the server's OpenAPI document (\`fragbox openapi\`, the same JSON as
// GET /api/v1/openapi.json), made by openapi-typescript. Regenerate after changing a route's
// documented shape: \`cd webapp && npm run api:types\` (FRAGBOX_BIN=<path to fragbox> to use a
// built binary). scripts/test.sh fails when this file differs from what the server documents.
`;

/** The document as the binary prints it. */
function readDocument() {
  const options = { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] };
  const bin = process.env.FRAGBOX_BIN;
  if (bin) return execFileSync(bin, ['openapi'], options);
  return execFileSync('cargo', ['run', '-q', '--locked', '-p', 'fragbox', '--', 'openapi'], { ...options, cwd: resolve(webapp, '..') });
}

async function generate() {
  const ast = await openapiTS(readDocument());
  return `${HEADER}\n${astToString(ast)}`;
}

const text = await generate();
if (!check) {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'fragbox-api-types-'));
  try {
    const fresh = join(dir, 'api-types.gen.ts');
    writeFileSync(fresh, text);
    if (readFileSync(fresh, 'utf8') !== readFileSync(target, 'utf8')) {
      console.error(
        'webapp/src/lib/api-types.gen.ts is out of date: the server\'s OpenAPI document changed.\n' +
          'Regenerate it with `cd webapp && npm run api:types` and commit the result.',
      );
      try {
        execFileSync('diff', ['-u', target, fresh], { stdio: 'inherit' });
      } catch {
        // diff exits 1 on a difference; its output above is the point.
      }
      process.exitCode = 1;
    } else {
      console.log('api-types.gen.ts matches the OpenAPI document');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
