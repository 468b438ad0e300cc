#!/usr/bin/env node
// Runs every browser journey in webapp/e2e/*.e2e.mjs with node's test runner against the real
// `fragbox` binary (FRAGBOX_BIN, default ../target/debug/fragbox) and webapp/dist.
// Usage: npm run e2e [-- <name filter>]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { chromiumMissingHelp, CHROMIUM, FRAGBOX_BIN, WEBAPP_DIR } from '../e2e/harness.mjs';

if (!existsSync(CHROMIUM)) {
  console.error(chromiumMissingHelp());
  process.exit(1);
}
if (!existsSync(FRAGBOX_BIN)) {
  console.error(`fragbox binary not found at ${FRAGBOX_BIN}: run \`cargo build -p fragbox\` at the repository root, or set FRAGBOX_BIN.`);
  process.exit(1);
}
if (!existsSync(join(WEBAPP_DIR, 'dist', 'index.html'))) {
  console.error('webapp/dist is missing: run `npm run build` first.');
  process.exit(1);
}

const filter = process.argv[2];
const dir = resolve(WEBAPP_DIR, 'e2e');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.mjs') && (!filter || f.includes(filter)))
  .sort()
  .map((f) => join(dir, f));
if (files.length === 0) {
  console.error(`no e2e journeys match ${filter ?? '*'}`);
  process.exit(1);
}

// Two files at a time: each starts its own server and browser; the machines have 2 cores.
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  cwd: WEBAPP_DIR,
});
process.exit(r.status ?? 1);
