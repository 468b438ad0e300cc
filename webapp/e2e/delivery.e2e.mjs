// Automatic delivery in the browser (issue 23): the server runs with a market (a small fake of
// market.csgo.com on 127.0.0.1 that buys at once and has the seller send the trade offer), so a
// withdrawal reaches "offer sent" for real; the skin screen then tells the player to accept it in
// Steam with a link to their trade offers, and the withdraw screen says plainly that the float
// received is the seller's.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { apiAs, cheapestCase, launchBrowser, newPlayer, SCREENSHOT_DIR, startServer, waitForBoot } from './harness.mjs';

const TRADE_URL = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbCdEfGh';

let market;
let server;
let browser;
let kase;

/** The market's side: every purchase is bought at once and its offer sent (stage 1 with a trade id). */
function fakeMarket() {
  const bought = new Set();
  const http = createServer((req, res) => {
    const url = new URL(req.url, 'http://market');
    const reply = (body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v2/get-money') return reply({ money: 100, currency: 'USD' });
    if (url.pathname === '/api/v2/buy-for') {
      bought.add(url.searchParams.get('custom_id'));
      return reply({ success: true, id: String(bought.size) });
    }
    if (url.pathname === '/api/v2/get-list-buy-info-by-custom-id') {
      const data = {};
      for (const id of url.searchParams.getAll('custom_id[]')) {
        if (bought.has(id)) data[id] = { stage: '1', settlement: 0, paid: 0.01, trade_id: '6500000001', causer: null };
      }
      return reply({ success: true, data: Object.keys(data).length ? data : [] });
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve({ http, url: `http://127.0.0.1:${http.address().port}` })));
}

before(async () => {
  market = await fakeMarket();
  server = await startServer({
    MARKET_PROVIDER: 'marketcsgo',
    MARKET_API_KEY: 'e2e-key',
    MARKET_API_URL: market.url,
    MARKET_POLL_SECS: '0.2',
    WITHDRAW_MIN_STARS: '0',
  });
  browser = await launchBrowser();
  kase = await cheapestCase(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  market?.http.close();
});

async function post(page, path, body) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

async function win(page) {
  const body = await post(page, `/cases/${kase.id}/open`, { requestId: `delivery-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` });
  return body.item;
}

async function shot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `delivery-${name}.png`) });
}

describe('automatic delivery', () => {
  for (const language of ['en', 'ru']) {
    test(`(${language}) a withdrawal bought on the market asks the player to accept the Steam offer, with the link`, async () => {
      const { page, errors, context } = await newPlayer(browser, server, { language, theme: null });
      const item = await win(page);
      await post(page, `/user/item/${item.id}/request-withdrawal`, { trade_url: TRADE_URL });
      let state = null;
      for (let i = 0; i < 300 && state !== 'offer_sent'; i++) {
        state = (await apiAs(page, server, `/user/item/${item.id}`)).body.item.deliveryState;
        if (state !== 'offer_sent') await page.waitForTimeout(100);
      }
      assert.equal(state, 'offer_sent', 'the server bought it and the offer is out');

      await page.goto(`${server.url}/skin/${item.id}`);
      await waitForBoot(page);
      await page.waitForSelector('[data-testid="skin-delivery"][data-state="offer_sent"]');
      const text = await page.textContent('[data-testid="skin-delivery"]');
      assert.match(text, language === 'ru' ? /примите его/ : /accept it in Steam/);
      assert.equal(await page.getAttribute('[data-testid="skin-accept-offer"]', 'href'), 'https://steamcommunity.com/my/tradeoffers');
      assert.equal(await page.locator('[data-testid="skin-pending-next"]').count(), 0, 'the manual "within 24 hours" text gives way');
      await shot(page, `offer-sent-${language}`);
      assert.deepEqual(errors, []);
      await context.close();
    });

    test(`(${language}) the withdraw screen says the float received is the seller's`, async () => {
      const { page, errors, context } = await newPlayer(browser, server, { language, theme: null });
      const item = await win(page);
      await page.goto(`${server.url}/skin/${item.id}`);
      await waitForBoot(page);
      await page.click('[data-testid="skin-withdraw"]');
      await page.waitForSelector('[data-testid="withdraw-float-note"]');
      const note = await page.textContent('[data-testid="withdraw-float-note"]');
      assert.match(note, language === 'ru' ? /с флоатом продавца, а не выпавшим/ : /with the seller’s float, not the drawn one/);
      await shot(page, `float-note-${language}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
