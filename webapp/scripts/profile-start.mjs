#!/usr/bin/env node
// Where the first open's long tasks go: opens the built app (served by the real `fragbox` in
// demo mode) in Debian's Chromium with the CPU slowed 4x like Lighthouse's mobile run, records
// a JavaScript CPU profile and the page's long tasks, and prints for each long task the
// functions that ran in it (self and inclusive time, scaled to the task's duration).
// Usage: npm run build [-- --minify false for readable names] && node scripts/profile-start.mjs [onboarding|home]
//   onboarding: a fresh browser (the first open); home: the same profile after accepting the terms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { CHROMIUM, startServer } from '../e2e/harness.mjs';

const mode = process.argv[2] ?? 'onboarding';
const server = await startServer({ RATE_LIMITS: 'off' });
const dir = mkdtempSync(join(tmpdir(), 'fragbox-profile-'));
const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'], viewport: { width: 390, height: 844 } });
try {
  const page = context.pages()[0] ?? (await context.newPage());
  if (mode === 'home') {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="page-onboarding"]');
    await page.click('[data-testid="terms-checkbox"]');
    await page.click('[data-testid="tg-main-button"]');
    await page.waitForSelector('[data-testid="page-home"]');
    await page.goto('about:blank');
  }
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: 'longtask', buffered: true });
    // A known function at a known time, to line the profile's clock up with performance.now().
    window.__markT = performance.now();
    (function __fragboxMarker() {
      const end = performance.now() + 3;
      while (performance.now() < end) {
        /* spin */
      }
    })();
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(`${server.url}/`);
  await page.waitForSelector(`[data-testid="page-${mode}"]`);
  await page.waitForTimeout(3000);
  const { profile } = await cdp.send('Profiler.stop');
  const longTasks = await page.evaluate(() => window.__longTasks);
  const markT = await page.evaluate(() => window.__markT);

  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    t += profile.timeDeltas[i];
    return [t, id];
  });
  const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\//, '')}:${n.callFrame.lineNumber}`;
  const marker = samples.find(([, id]) => nodes.get(id).callFrame.functionName === '__fragboxMarker');
  if (!marker) throw new Error('the clock marker was not sampled');
  const offset = marker[0] / 1000 - markT;
  console.log(`long tasks (4x CPU slowdown), ${mode}: ${longTasks.map(([s, d]) => `${d} ms at ${s}`).join(', ')}`);
  for (const [start, duration] of longTasks) {
    const ids = samples.filter(([ts]) => ts >= (start + offset) * 1000 && ts <= (start + duration + offset) * 1000).map(([, id]) => id);
    if (!ids.length) continue;
    const per = duration / ids.length;
    const self = new Map();
    const inclusive = new Map();
    for (const id of ids) {
      const k = name(nodes.get(id));
      self.set(k, (self.get(k) ?? 0) + 1);
      const seen = new Set();
      for (let p = id; p !== undefined; p = parent.get(p)) {
        const kk = name(nodes.get(p));
        if (seen.has(kk) || kk.startsWith('(root)')) continue;
        seen.add(kk);
        inclusive.set(kk, (inclusive.get(kk) ?? 0) + 1);
      }
    }
    const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, c]) => `    ${(c * per).toFixed(0)} ms ${k}`).join('\n');
    console.log(`\ntask at ${start} ms, ${duration} ms\n  self:\n${top(self, 6)}\n  inclusive:\n${top(inclusive, 16)}`);
  }
} finally {
  await context.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
