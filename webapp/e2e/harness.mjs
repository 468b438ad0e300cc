// Browser test harness: starts the real `fragbox` binary (demo mode by default) on a free port
// with a fresh SQLite file, drives Debian's Chromium through playwright-core at a phone
// viewport, and saves screenshots under webapp/screenshots/ (gitignored).
//
// A journey file is `e2e/<name>.e2e.mjs` using node's test runner:
//
//   import { test, before, after } from 'node:test';
//   import { startServer, launchBrowser, openApp, agreeToTerms } from './harness.mjs';
//   let server, browser;
//   before(async () => { server = await startServer(); browser = await launchBrowser(); });
//   after(async () => { await browser?.close(); await server?.stop(); });
//   test('a player ...', async () => { const { page } = await openApp(browser, server); ... });
//
// `npm run e2e` (scripts/e2e.mjs) runs every such file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

export const WEBAPP_DIR = resolve(import.meta.dirname, '..');
export const REPO_DIR = resolve(WEBAPP_DIR, '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FRAGBOX_BIN = resolve(WEBAPP_DIR, process.env.FRAGBOX_BIN ?? '../target/debug/fragbox');
export const SCREENSHOT_DIR = join(WEBAPP_DIR, 'screenshots');
export const PHONE = { width: 390, height: 844 };

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Environment variables a test must never inherit from the developer's shell. */
const SCRUBBED = [
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_API_URL',
  'DEV_GATE_PASSWORD',
  'ADMIN_IDS',
  'WEBAPP_URL',
  'DATABASE_URL',
  'BIND_ADDR',
  'AUTH_MAX_AGE_SECS',
];

/**
 * Starts `fragbox` with a fresh database. `env` adds or overrides variables (e.g.
 * `{ DEV_GATE_PASSWORD: 'x' }`, or a bot token for the not-in-Telegram journey).
 * Returns `{ url, env, cli(...args), logs(), stop() }`.
 */
export async function startServer(env = {}) {
  if (!existsSync(FRAGBOX_BIN)) {
    throw new Error(`fragbox binary not found at ${FRAGBOX_BIN}: run \`cargo build -p fragbox\` in ${REPO_DIR} or set FRAGBOX_BIN`);
  }
  const dist = join(WEBAPP_DIR, 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`webapp/dist is missing: run \`npm run build\` in ${WEBAPP_DIR} first`);
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fragbox-e2e-'));
  const base = { ...process.env };
  for (const k of SCRUBBED) delete base[k];
  const fullEnv = {
    ...base,
    BIND_ADDR: `127.0.0.1:${port}`,
    DATABASE_URL: `sqlite://${join(dir, 'fragbox.db')}`,
    WEBAPP_DIST: dist,
    CATALOG_DIR: join(REPO_DIR, 'data', 'catalog'),
    // The shop fetches the catalog's pictures itself: from nowhere (a closed local port) unless a
    // journey brings a fake CDN, into a cache of this run's own.
    CATALOG_ASSETS_URL: 'http://127.0.0.1:9',
    CATALOG_IMAGES_DIR: join(dir, 'image-cache'),
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
    ...env,
  };
  const child = spawn(FRAGBOX_BIN, [], { cwd: REPO_DIR, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`fragbox exited during start-up (${JSON.stringify(exited)}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`fragbox did not answer /healthz within 30 s:\n${output}`);
    }
    await sleep(100);
  }

  return {
    url,
    env: fullEnv,
    logs: () => output,
    /** Runs an operator command (`fragbox maintenance on`) against the same database. */
    cli: (...args) => {
      const r = spawnSync(FRAGBOX_BIN, args, { cwd: REPO_DIR, env: fullEnv, encoding: 'utf8', timeout: 30_000 });
      if (r.status !== 0) throw new Error(`fragbox ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    },
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        for (let i = 0; i < 50 && !exited; i += 1) await sleep(100);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function chromiumMissingHelp() {
  return `Chromium not found at ${CHROMIUM}. Install Debian's build with:\n  apt-get update && apt-get install -y chromium\n(or set CHROMIUM_PATH). \`npx playwright install\` cannot download browsers on this network.`;
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(chromiumMissingHelp());
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--headless'],
  });
}

/**
 * A fresh phone-sized browser context (its own storage, so its own demo user) with one page.
 * Uncaught page errors are collected in `errors`; journeys assert there are none.
 */
export async function newPhone(browser, { colorScheme = 'dark', locale = 'ru-RU' } = {}) {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme,
    locale,
  });
  context.setDefaultTimeout(15_000);
  // Every outside host is blocked: journeys never depend on the network. The catalog's pictures
  // come from the shop (`/img/`), which has no CDN to fetch them from (see `startServer`), so
  // journeys see the fallback silhouettes.
  await context.route(isOutside, (route) => route.abort('blockedbyclient'));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Any address that is not this machine's: the harness blocks it. */
export const isOutside = (url) => !/^(https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/|data:|blob:|about:)/.test(String(url));

/** The store list (`GET /api/v1/cases`) as the server answers it. */
export async function catalogCases(server) {
  const res = await fetch(`${server.url}/api/v1/cases`);
  return (await res.json()).data;
}

/** The cheapest case of the catalog (the journeys open it: the demo balance pays for several). */
export async function cheapestCase(server) {
  const cases = await catalogCases(server);
  return cases.reduce((a, b) => (b.tokens < a.tokens ? b : a));
}

/** One case's detail (`GET /api/v1/cases/{id}`): items with names, pictures and price ranges. */
export async function caseDetail(server, id) {
  const res = await fetch(`${server.url}/api/v1/cases/${id}`);
  return (await res.json()).data;
}

/** Waits until the shell finished booting (session, gates) and no splash is shown. */
export async function waitForBoot(page) {
  await page.waitForFunction(
    () => window.__fragboxBooted === true || document.querySelector('[data-testid="not-in-telegram"], [data-testid="page-login"]'),
  );
  await page.waitForSelector('[data-testid="splash"]', { state: 'detached' });
}

/** Opens the app at `path` in a new phone context and waits for the boot. */
export async function openApp(browser, server, path = '/', opts = {}) {
  const phone = await newPhone(browser, opts);
  await phone.page.goto(`${server.url}${path}`);
  await waitForBoot(phone.page);
  return phone;
}

/** The browser locale of each language the app speaks. */
export const LOCALES = { ru: 'ru-RU', en: 'en-US' };

/**
 * The one way a journey makes a new player: a fresh phone (its own storage, so its own demo
 * user) in a browser speaking `language` (`ru` or `en`), opened at `path`, signed in, past
 * onboarding (terms and 18+ accepted), on the screen `landing` names (home unless told; null
 * waits for nothing more).
 * - `theme`: the app's theme, stored as the player's choice before the first load; null
 *   stores none (the browser's scheme decides, as for a player who never chose).
 * - `colorScheme`: the browser's colour scheme (the stored theme's, else dark).
 * - `storeLanguage`: the language is stored as the player's choice too (not only the browser's).
 */
export async function newPlayer(
  browser,
  server,
  { language = 'ru', theme = 'dark', colorScheme = theme ?? 'dark', storeLanguage = false, path = '/', landing = '[data-testid="page-home"]' } = {},
) {
  const phone = await newPhone(browser, { locale: LOCALES[language], colorScheme });
  const stored = {};
  if (theme) stored.app_theme = theme;
  if (storeLanguage) stored.app_language = language;
  if (Object.keys(stored).length > 0) {
    await phone.page.addInitScript((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), stored);
  }
  await phone.page.goto(`${server.url}${path}`);
  await waitForBoot(phone.page);
  await agreeToTerms(phone.page);
  if (landing) await phone.page.waitForSelector(landing);
  return phone;
}

/** Moves the app to `path` the way its own links do (no reload). */
export async function go(page, path) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** A screenshot of the settled screen as `screenshots/<name>.png`. */
export async function shot(page, name, settleMs = 300) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForTimeout(settleMs);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Ticks the terms and the 18+ confirmation and starts (the page must show onboarding). */
export async function agreeToTerms(page) {
  await page.waitForSelector('[data-testid="page-onboarding"]');
  await page.click('[data-testid="terms-checkbox"]');
  await page.click('[data-testid="adult-checkbox"]');
  await page.click('[data-testid="tg-main-button"]');
  await page.waitForSelector('[data-testid="page-onboarding"]', { state: 'detached' });
}

/** The session token and a GET against the API as the page's player. */
export async function apiAs(page, server, path) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${server.url}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Methods the app sent to the mocked Telegram client (demo mode records them). */
export function telegramEvents(page) {
  return page.evaluate(() => (window.__tgEvents ?? []).map(([name]) => name));
}

/** Switches the stored theme and reloads (the shell applies it at start). */
export async function useTheme(page, theme) {
  await page.evaluate((t) => localStorage.setItem('app_theme', t), theme);
  await page.reload();
  await waitForBoot(page);
}

/**
 * Saves `<name>-light.png` and `<name>-dark.png` of the current screen. `ready` is a selector
 * to wait for after each reload. The stored theme is restored afterwards.
 */
export async function screenshotBothThemes(page, name, ready) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const before = await page.evaluate(() => localStorage.getItem('app_theme'));
  for (const theme of ['light', 'dark']) {
    await useTheme(page, theme);
    if (ready) await page.waitForSelector(ready);
    await page.waitForTimeout(350); // let entry animations settle
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${theme}.png`) });
  }
  await page.evaluate((t) => (t ? localStorage.setItem('app_theme', t) : localStorage.removeItem('app_theme')), before);
}

/**
 * Reloads until `selector` shows (the server caches some switches for a few seconds, e.g.
 * maintenance), failing after `timeoutMs`.
 */
export async function reloadUntil(page, selector, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.reload();
    try {
      await page.waitForSelector(selector, { timeout: 2_000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

// --- Accessibility ---------------------------------------------------------------------------

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the current page (evaluated through the DevTools protocol, so the app's
 * CSP does not stop it) and answers the serious and critical violations, one line each.
 * Animations are finished first so colours are measured as they end up.
 */
export async function axeViolations(page, label) {
  await page.evaluate(() =>
    document.getAnimations().forEach((a) => {
      try {
        a.finish();
      } catch {
        // Infinite (spinners, skeletons): left running.
      }
    }),
  );
  const has = await page.evaluate(() => typeof window.axe === 'object');
  if (!has) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.any?.[0]?.message ?? n.failureSummary ?? ''}`.slice(0, 300)),
    }));
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${label}: [${v.impact}] ${v.id}: ${n}`));
}
