// Real goods in the browser: the catalog's pictures fall back cleanly when the shop cannot have
// them (the harness gives it no CDN: `/img/` answers 404), the case page shows its contents by tier with
// price ranges, the skin screen draws the float bar, a bonus-won skin explains itself, and the
// skins screen sorts by price and by rarity and remembers it.
//
// Until the server sends the instance fields (`float`, `exterior`, `statTrak`, `wearMin`/`wearMax`,
// `withdrawable`), the float and bonus journeys add them to the item answers the page receives
// (the contract of issue 22); once the server sends them, its own values are used.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { apiAs, caseDetail, cheapestCase, go, launchBrowser, newPlayer, shot, startServer, waitForBoot } from './harness.mjs';

let server;
let browser;
let kase;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  kase = await cheapestCase(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openViaApi(page, n = 1) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const me = (await apiAs(page, server, '/me')).body.data;
  const won = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${server.url}/api/v1/cases/${kase.id}/open`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ telegramId: me.telegramId, requestId: `goods-${Date.now()}-${i}-${Math.random().toString(36).slice(2, 8)}` }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    won.push(body.item);
  }
  return won;
}

/**
 * Adds the announced instance fields to every item answer the page gets, where the server does
 * not send them yet: `extra(item)` gives the values.
 */
async function withInstanceFields(page, extra) {
  // The screens under test are about rendering these fields: they replace what the server drew.
  const patch = (item) => (item && typeof item === 'object' ? { ...item, ...extra(item) } : item);
  await page.route(/\/api\/v1\/(user\/items|user\/item\/\d+)(\?.*)?$/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    if (Array.isArray(body.data)) body.data = body.data.map(patch);
    if (body.item) body.item = patch(body.item);
    await route.fulfill({ response: res, json: body });
  });
}

describe('real goods', () => {
  test('pictures the shop cannot have fall back to the rarity-coloured drawing, with no broken image and no layout shift', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { language: 'ru' });
    const missing = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${server.url}/img/`) && r.status() === 404) missing.push(r.url());
    });
    // The shop's picture answers are held until the page has settled, then let through (404s):
    // what is measured is the shift the fallback makes, not Telegram's bottom buttons appearing
    // (which shrink the viewport, as they do in the client).
    let release;
    const held = new Promise((r) => (release = r));
    await context.route(
      (url) => url.href.startsWith(`${server.url}/img/`),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await go(page, `/case/${kase.id}`);
    await page.waitForSelector('[data-testid="case-contents"] [data-testid="contents-item"]');
    await page.waitForTimeout(700);
    await page.evaluate(() => {
      window.__cls = 0;
      window.__shifts = [];
      const name = (n) => (n && n.nodeType === 1 ? `${n.tagName.toLowerCase()}${n.dataset.testid ? `[${n.dataset.testid}]` : ''}.${n.className}` : String(n?.nodeName));
      const box = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.hadRecentInput) continue;
          window.__cls += e.value;
          window.__shifts.push({ value: e.value.toFixed(4), sources: e.sources.map((s) => `${name(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`) });
        }
      }).observe({ type: 'layout-shift' });
    });
    release();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="case-contents"] [data-img-fallback]').length > 0);
    await page.waitForTimeout(500);

    const seen = await page.evaluate(() => {
      const imgs = [...document.querySelectorAll('main img')];
      const broken = imgs.filter((i) => i.complete && i.naturalWidth === 0 && !i.src.startsWith('data:')).map((i) => i.src);
      const boxes = [...document.querySelectorAll('[data-testid="case-contents"] [data-img-fallback]')].map((e) => {
        const r = e.getBoundingClientRect();
        return [Math.round(r.width), Math.round(r.height)];
      });
      const slotImgs = [...document.querySelectorAll('[data-testid="roulette"] img')].map((i) => i.getAttribute('src'));
      return { broken, boxes, slotImgs, cls: window.__cls, shifts: window.__shifts };
    });
    assert.deepEqual(seen.broken, [], 'no broken picture is left on screen');
    assert.ok(seen.boxes.length > 0, 'the fallback draws in the contents');
    assert.ok(seen.boxes.every(([w, h]) => w === 64 && h === 48), `each fallback keeps the picture's reserved box (${JSON.stringify(seen.boxes.slice(0, 3))})`);
    assert.ok(seen.slotImgs.some((s) => s.startsWith('data:image/svg+xml')), 'roulette slots draw the fallback silhouette');
    assert.ok(missing.length > 0, 'the catalog pictures were asked of the shop, which had none');
    assert.ok(seen.cls < 0.05, `no layout shift from the pictures (CLS ${seen.cls}): ${JSON.stringify(seen.shifts, null, 1)}`);
    await shot(page, 'goods-fallback-case', 200);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the case page lists its contents by tier, specials on top, each with its price range and chance', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { language: 'ru' });
    const detail = await caseDetail(server, kase.id);
    await go(page, `/case/${kase.id}`);
    await page.waitForSelector('[data-testid="tier-group"]');
    const tiers = await page.locator('[data-testid="tier-group"]').evaluateAll((els) => els.map((e) => e.dataset.rarity));
    const order = ['extraordinary', 'covert', 'classified', 'restricted', 'milspec'];
    assert.deepEqual(tiers, order.filter((r) => detail.items.some((i) => i.rarity === r)), 'rarest tier first');
    assert.match(await page.locator('[data-testid="tier-group"]').first().textContent(), /Редкий особый предмет/);
    assert.equal(await page.locator('[data-testid="contents-item"]').count(), detail.items.length);
    // A Russian name from the detail, and a range over exteriors.
    const ru = detail.items.find((i) => i.variantRu && i.variantRu !== i.variant);
    if (ru) assert.ok((await page.locator(`[data-item-id="${ru.id}"]`).textContent()).includes(ru.variantRu), 'the Russian finish name');
    const ranged = detail.items.find((i) => i.priceMin !== i.priceMax);
    assert.match(await page.locator(`[data-item-id="${ranged.id}"] [data-testid="price-range"]`).textContent(), /–/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the skin screen shows exterior, StatTrak™, and a float bar with the marker at the float inside the skin’s range', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { language: 'en' });
    const [item] = await openViaApi(page);
    await withInstanceFields(page, () => ({ float: 0.2345, exterior: 'Field-Tested', statTrak: true, special: false, wearMin: 0.06, wearMax: 0.8, withdrawable: true }));
    await page.goto(`${server.url}/skin/${item.id}`);
    await waitForBoot(page);
    await page.waitForSelector('[data-testid="float-bar"]');
    const bar = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="float-bar"]');
      const track = el.querySelector('[role="img"]').getBoundingClientRect();
      const marker = el.querySelector('[data-testid="float-marker"]').getBoundingClientRect();
      return {
        float: Number(el.dataset.float),
        min: Number(el.dataset.min),
        max: Number(el.dataset.max),
        at: (marker.left + marker.width / 2 - track.left) / track.width,
        bands: el.querySelectorAll('[role="img"] > span').length,
      };
    });
    assert.ok(bar.float >= bar.min && bar.float <= bar.max, `the float ${bar.float} lies in [${bar.min}, ${bar.max}]`);
    assert.ok(Math.abs(bar.at - bar.float) < 0.02, `the marker sits at the float (${bar.at} vs ${bar.float})`);
    assert.ok(bar.bands >= 5 + 1, 'five wear bands and the marker');
    const text = await page.textContent('[data-testid="page-skin"]');
    assert.match(text, /StatTrak™/);
    assert.match(text, /Field-Tested|Minimal Wear|Factory New|Well-Worn|Battle-Scarred/);
    await shot(page, 'goods-float-bar-en', 200);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a skin won with bonus tokens explains calmly that it cannot be withdrawn, and the refusal names the packages', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { language: 'ru' });
    const [item] = await openViaApi(page);
    await withInstanceFields(page, () => ({ float: 0.5, exterior: 'Battle-Scarred', statTrak: false, special: false, wearMin: 0, wearMax: 1, withdrawable: false }));
    await page.goto(`${server.url}/skin/${item.id}`);
    await waitForBoot(page);
    await page.waitForSelector('[data-testid="bonus-note"]');
    assert.equal(await page.locator('[data-testid="skin-withdraw"]').count(), 0, 'no withdraw button');
    assert.match(await page.textContent('[data-testid="bonus-note"]'), /бонусные токены/);
    assert.equal(await page.locator('[data-toast="error"]').count(), 0, 'not an error');
    await shot(page, 'goods-bonus-note-ru', 200);

    // A withdrawal the server refuses with 409 bonus_item (the item looked withdrawable to the
    // page): the calm note with the packages takes the form's place, no error toast.
    await go(page, '/packages');
    await page.waitForSelector('[data-testid="package"]');
    await page.locator('[data-testid="package"]').first().click();
    for (let i = 0; i < 300 && (await apiAs(page, server, '/me')).body.data.withdrawalsUnlocked !== true; i++) await page.waitForTimeout(100);
    await page.route(/\/api\/v1\/user\/item\/\d+\/request-withdrawal$/, (route) =>
      route.fulfill({ status: 409, json: { error: 'bonus', code: 'bonus_item', message: 'won with bonus tokens' } }),
    );
    await page.unroute(/\/api\/v1\/(user\/items|user\/item\/\d+)(\?.*)?$/);
    await page.goto(`${server.url}/skin/${item.id}`);
    await waitForBoot(page);
    await page.click('[data-testid="skin-withdraw"]');
    await page.waitForSelector('[data-testid="withdraw-link"]');
    await page.fill('[data-testid="withdraw-link"]', 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbCdEfGh');
    await page.click('[data-testid="tg-main-button"]');
    await page.waitForSelector('[data-testid="withdraw-bonus"]');
    assert.match(await page.textContent('[data-testid="withdraw-bonus"]'), /нельзя вывести/);
    assert.equal(await page.locator('[data-toast="error"]').count(), 0, 'no error toast for a bonus skin');
    await shot(page, 'goods-withdraw-bonus-ru', 200);
    await page.click('[data-testid="bonus-packages"]');
    await page.waitForURL(/\/packages$/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('my skins sort by price and by rarity, and the choice is remembered', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { language: 'ru' });
    await openViaApi(page, 4);
    await page.goto(`${server.url}/skins`);
    await waitForBoot(page);
    await page.waitForSelector('[data-testid="skins-sort"]');
    const prices = async () =>
      page.locator('[data-testid="skin-card"]').evaluateAll((els) => els.map((e) => Number(e.dataset.price)));
    await page.locator('[data-testid="skins-sort"]').getByRole('radio', { name: 'Цена' }).click();
    let shown = await prices();
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a), `dearest first (${shown})`);

    await page.reload();
    await waitForBoot(page);
    await page.waitForSelector('[data-testid="skins-sort"]');
    assert.equal(await page.locator('[data-testid="skins-sort"]').getByRole('radio', { name: 'Цена' }).getAttribute('aria-checked'), 'true', 'remembered');
    shown = await prices();
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a));

    await page.locator('[data-testid="skins-sort"]').getByRole('radio', { name: 'Редкость' }).click();
    const rank = ['extraordinary', 'covert', 'classified', 'restricted', 'milspec'];
    const ranks = await page.locator('[data-testid="skin-card"]').evaluateAll((els) => els.map((e) => e.dataset.rarity));
    const idx = ranks.map((r) => rank.indexOf(r));
    assert.deepEqual(idx, [...idx].sort((a, b) => a - b), `rarest first (${ranks})`);
    await shot(page, 'goods-skins-sorted', 200);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
