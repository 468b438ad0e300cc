// The live drop ribbon (issue 24, point 1) against the real `fragbox` binary in demo mode: one
// player opens a case, another player's ribbon on home shows the drop within a second, in the
// watcher's own language, and a tap on it opens that case. The store shows the same ribbon.
// Screenshots at 390×844: webapp/screenshots/feed-*.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { caseDetail, cheapestCase, launchBrowser, newPlayer, SCREENSHOT_DIR, startServer } from './harness.mjs';

let server;
let browser;
let kase;

before(async () => {
  server = await startServer();
  kase = await cheapestCase(server);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A demo player past onboarding on home, who chose `language`. */
const player = (language, colorScheme = 'dark') => newPlayer(browser, server, { language, theme: null, colorScheme, storeLanguage: true });

/** Opens the cheapest case as the page's player, straight through the API (English answer). */
async function openAs(page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${server.url}/api/v1/cases/${kase.id}/open`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
    body: '{}',
  });
  assert.equal(res.status, 200);
  return (await res.json()).item;
}

async function shot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `feed-${name}.png`) });
}

describe('the live drop ribbon', () => {
  test('an open by one player shows in another player’s ribbon within a second, and a tap opens that case', async () => {
    const watcher = await player('ru');
    const opener = await player('en', 'light');
    const { page } = watcher;
    // The ribbon is its own chunk: it loads after home, then streams.
    await page.waitForSelector('[data-testid="drop-ribbon"][data-status="live"]');
    const before = await page.locator('[data-testid="feed-drop"]:not([data-demo])').count();

    const item = await openAs(opener.page);
    const opened = Date.now();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="feed-drop"]:not([data-demo])').length > n, before, { timeout: 1000 });
    const within = Date.now() - opened;
    assert.ok(within <= 1000, `the drop took ${within} ms`);

    // The newest card is that drop, named in the watcher's language (Russian) whoever opened.
    const skin = (await caseDetail(server, kase.id)).items.find((i) => i.id === item.weaponId);
    assert.ok(skin, `the case lists ${item.weaponId}`);
    const ruName = `${skin.rarity === 'extraordinary' ? '★ ' : ''}${skin.variantRu ? `${skin.nameRu} | ${skin.variantRu}` : skin.nameRu}`;
    const card = page.locator('[data-testid="feed-drop"]:not([data-demo])').first();
    assert.equal((await card.locator('button').getAttribute('data-case')), kase.id);
    assert.match((await card.innerText()).replace(/\s+/g, ' '), new RegExp(ruName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(await card.innerText(), /Demo/);
    await shot(page, 'home-ru-dark');

    await card.locator('button').click();
    await page.waitForURL(`**/case/${kase.id}`);
    await page.waitForSelector('[data-testid="fair-line"]');
    assert.deepEqual(watcher.errors, []);
    assert.deepEqual(opener.errors, []);
    await watcher.context.close();
    await opener.context.close();
  });

  test('the store shows the same ribbon, its cards in the viewer’s language', async () => {
    const { page, errors, context } = await player('en', 'light');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/cases');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForSelector('[data-testid="page-cases"] [data-testid="feed-drop"]');
    const label = await page.locator('[data-testid="feed-drop"] button').first().evaluate((b) => b.textContent);
    assert.match(label, /from .+\. Open this case/);
    assert.doesNotMatch(label, /[А-Яа-яЁё]/, 'English names for an English viewer');
    await shot(page, 'store-en-light');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a player who turns their name off in the profile drops as “a player”', async () => {
    const watcher = await player('en');
    const hider = await player('ru');
    await hider.page.evaluate(() => {
      window.history.pushState({}, '', '/profile');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    const toggle = hider.page.locator('[data-testid="setting-feed-name"] [role="switch"]');
    await toggle.waitFor();
    await hider.page.waitForFunction(() => !document.querySelector('[data-testid="setting-feed-name"] [role="switch"]')?.disabled);
    assert.equal(await toggle.getAttribute('aria-checked'), 'true', 'names show by default');
    const saved = hider.page.waitForResponse((r) => r.url().endsWith('/api/v1/settings/feed') && r.request().method() === 'PUT');
    await toggle.click();
    assert.equal((await saved).status(), 200);
    assert.equal(await toggle.getAttribute('aria-checked'), 'false');

    await watcher.page.waitForSelector('[data-testid="drop-ribbon"][data-status="live"]');
    const before = await watcher.page.locator('[data-testid="feed-drop"]:not([data-demo])').count();
    await openAs(hider.page);
    await watcher.page.waitForFunction((n) => document.querySelectorAll('[data-testid="feed-drop"]:not([data-demo])').length > n, before, { timeout: 2000 });
    const newest = watcher.page.locator('[data-testid="feed-drop"]:not([data-demo])').first();
    assert.match(await newest.innerText(), /A player/);
    assert.doesNotMatch(await newest.innerText(), /Demo/);
    assert.deepEqual(watcher.errors, []);
    assert.deepEqual(hider.errors, []);
    await watcher.context.close();
    await hider.context.close();
  });
});
