#!/usr/bin/env node
// Lighthouse (mobile, the default simulated slow 4G and 4x CPU slowdown) on the built mini app,
// served by the real `fragbox` binary in demo mode, with Debian's Chromium:
//   1. the first open (a fresh browser: onboarding),
//   2. home after onboarding (the same browser profile, terms already accepted).
// Each is run RUNS times (default 3); every score and the key timings are printed, and the
// process fails when a performance, accessibility or best-practices score is under 95.
// Usage: npm run build && node scripts/lighthouse.mjs [runs] [--first-open]   (FRAGBOX_BIN, CHROMIUM_PATH as for e2e)
// `--first-open` measures only the first open (no onboarding, no home). The median LCP of each
// page and the element Lighthouse names as the largest contentful paint are printed after the table.
// With LIGHTHOUSE_REPORT_DIR=dir each report is also written there as JSON, and the main
// thread's breakdown, script boot-up and long tasks of every run are printed (profiling).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

import { CHROMIUM, startServer } from '../e2e/harness.mjs';

const ARGS = process.argv.slice(2);
const FIRST_OPEN_ONLY = ARGS.includes('--first-open');
const RUNS = Number(ARGS.find((a) => !a.startsWith('--')) ?? 3);
const MIN_SCORE = 95;
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true });

/** Where the main thread's time went (the observed, unthrottled trace). */
function printProfile(name, lhr, origin) {
  const a = lhr.audits;
  const short = (url) => String(url).replace(origin, '');
  console.log(`--- ${name}`);
  console.log('  main thread:', (a['mainthread-work-breakdown']?.details?.items ?? []).map((i) => `${i.group} ${Math.round(i.duration)}`).join(', '));
  console.log('  boot-up:', (a['bootup-time']?.details?.items ?? []).map((i) => `${short(i.url)} total ${Math.round(i.total)} script ${Math.round(i.scripting)} parse ${Math.round(i.scriptParseCompile)}`).join('; '));
  console.log('  long tasks:', (a['long-tasks']?.details?.items ?? []).map((i) => `${short(i.url)} ${Math.round(i.duration)}@${Math.round(i.startTime)}`).join(', '));
}

/** The element Lighthouse names as the largest contentful paint (its selector and a snippet). */
function lcpElement(lhr) {
  const details = lhr.audits['largest-contentful-paint-element']?.details;
  // Lighthouse 12: a list whose first table holds the element as a `node` item.
  const tables = details?.type === 'list' ? details.items : [details];
  const node = tables?.[0]?.items?.[0]?.node;
  if (!node) return '(none)';
  return `${node.selector ?? ''} ${String(node.snippet ?? '').slice(0, 120)}`.trim();
}

async function audit(url, userDataDir, keepStorage, name) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, userDataDir });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableStorageReset: keepStorage,
    });
    const lhr = result.lhr;
    if (REPORT_DIR) {
      writeFileSync(join(REPORT_DIR, `${name}.json`), result.report);
      printProfile(name, lhr, new URL(url).origin);
    }
    const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcp: ms('first-contentful-paint'),
      lcp: ms('largest-contentful-paint'),
      tbt: ms('total-blocking-time'),
      cls: lhr.audits['cumulative-layout-shift']?.numericValue?.toFixed(3),
      lcpElement: lcpElement(lhr),
      finalUrl: lhr.finalDisplayedUrl,
      failing,
    };
  } finally {
    await chrome.kill();
  }
}

/** Opens the app once in `userDataDir` and accepts the terms, so the next open lands on home. */
async function onboard(url, userDataDir) {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    viewport: { width: 390, height: 844 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForSelector('[data-testid="page-onboarding"]', { timeout: 30_000 });
    await page.click('[data-testid="terms-checkbox"]');
    await page.click('[data-testid="adult-checkbox"]');
    await page.click('[data-testid="tg-main-button"]');
    await page.waitForSelector('[data-testid="page-home"]', { timeout: 30_000 });
  } finally {
    await context.close();
  }
}

const server = await startServer({ RATE_LIMITS: 'off' });
const rows = [];
try {
  for (let i = 1; i <= RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'fragbox-lh-'));
    try {
      rows.push({ page: 'first open (onboarding)', run: i, ...(await audit(`${server.url}/`, dir, false, `onboarding-${i}`)) });
      if (FIRST_OPEN_ONLY) continue;
      await onboard(`${server.url}/`, dir);
      rows.push({ page: 'home after onboarding', run: i, ...(await audit(`${server.url}/`, dir, true, `home-${i}`)) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await server.stop();
}

console.log('| page | run | performance | accessibility | best practices | FCP ms | LCP ms | TBT ms | CLS |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.page} | ${r.run} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${r.cls} |`);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
};
for (const page of [...new Set(rows.map((r) => r.page))]) {
  const mine = rows.filter((r) => r.page === page);
  console.log(`${page}: median LCP ${median(mine.map((r) => r.lcp))} ms over ${mine.length} runs (FCP ${median(mine.map((r) => r.fcp))} ms)`);
  for (const r of mine) console.log(`  run ${r.run} LCP element: ${r.lcpElement}`);
}
const low = rows.filter((r) => r.performance < MIN_SCORE || r.accessibility < MIN_SCORE || r.bestPractices < MIN_SCORE);
for (const r of low) console.error(`under ${MIN_SCORE}: ${r.page} run ${r.run}; failing audits: ${r.failing.join(', ')}`);
process.exit(low.length ? 1 : 0);
