// Pictures served by the shop (issue 32, point 8): the page asks only its own origin for
// pictures (and Telegram for avatars). With the outside CDN unreachable, every item shows its
// type's silhouette; with a CDN (a fake on 127.0.0.1), the shop fetches each picture once and the
// browser still never contacts the CDN.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { cheapestCase, go, launchBrowser, newPlayer, SCREENSHOT_DIR, startServer } from './harness.mjs';

/** A real 1 × 1 lossless WebP. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** A fake CDN in the library's shape that counts what it is asked. */
function fakeCdn() {
  const hits = [];
  const srv = createServer((req, res) => {
    hits.push(req.url);
    if (!/^\/images\/[0-9a-f]+\.webp$/.test(req.url)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/webp' }).end(WEBP);
  });
  return new Promise((ok) =>
    srv.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${srv.address().port}`, hits, close: () => srv.close() })),
  );
}

/** Records every request the page makes that is not to the shop, `data:`/`blob:`, or Telegram's avatars. */
function watchOutside(page, server) {
  const outside = [];
  const pictures = [];
  page.on('request', (r) => {
    const url = r.url();
    if (r.resourceType() === 'image') pictures.push(url);
    const ours = url.startsWith(`${server.url}/`) || url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('https://t.me/');
    if (!ours) outside.push(url);
  });
  return { outside, pictures };
}

describe('pictures served by the shop', () => {
  test('with the outside CDN unreachable, pictures come from nowhere but the shop and each item shows its type', async () => {
    const server = await startServer(); // the harness's CDN is a closed local port
    try {
      const kase = await cheapestCase(server);
      const { page, context, errors } = await newPlayer(browser, server, { language: 'en' });
      const seen = watchOutside(page, server);

      await page.waitForSelector('[data-img-fallback][data-kind="case"]');
      await go(page, `/case/${kase.id}`);
      await page.waitForSelector('[data-testid="case-contents"] [data-testid="contents-item"]');
      // Pictures load lazily: bring the whole list past the screen once.
      const count = await page.locator('[data-testid="case-contents"] [data-testid="contents-item"]').count();
      for (let i = 0; i < count; i += 4) {
        await page.locator('[data-testid="case-contents"] [data-testid="contents-item"]').nth(i).scrollIntoViewIfNeeded();
        await page.waitForTimeout(50);
      }
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="case-contents"] [data-img-fallback]').length >= 10);
      const drawn = await page.evaluate(() => {
        const fallbacks = [...document.querySelectorAll('[data-testid="case-contents"] [data-img-fallback]')];
        return {
          kinds: [...new Set(fallbacks.map((f) => f.dataset.kind))].sort(),
          shapes: new Set(fallbacks.map((f) => f.querySelector('path')?.getAttribute('d'))).size,
          slots: [...document.querySelectorAll('[data-testid="roulette"] img')].map((i) => [i.dataset.kind, i.getAttribute('src')]),
        };
      });
      assert.ok(drawn.kinds.length >= 4, `several weapon types in one case: ${drawn.kinds}`);
      assert.ok(drawn.kinds.includes('knife') || drawn.kinds.includes('gloves'), `the ★ specials draw a knife or gloves: ${drawn.kinds}`);
      assert.equal(drawn.shapes, drawn.kinds.length, 'one shape per type');
      const slotKinds = new Set(drawn.slots.filter(([, src]) => src?.startsWith('data:image/svg+xml')).map(([k]) => k));
      assert.ok(slotKinds.size >= 1, `roulette slots draw their type's silhouette: ${JSON.stringify(drawn.slots.slice(0, 3))}`);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'pictures-cdn-down.png') });

      assert.ok(seen.pictures.some((u) => u.startsWith(`${server.url}/img/`)), 'the catalog pictures were asked of the shop');
      assert.deepEqual(seen.outside, [], 'no request left the shop');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('with a CDN, the shop fetches each picture and the browser loads it from the shop only', async () => {
    const cdn = await fakeCdn();
    const server = await startServer({ CATALOG_ASSETS_URL: cdn.url });
    try {
      const kase = await cheapestCase(server);
      const { page, context, errors } = await newPlayer(browser, server, { language: 'en' });
      const seen = watchOutside(page, server);
      await go(page, `/case/${kase.id}`);
      await page.waitForSelector('[data-testid="case-contents"] [data-testid="contents-item"]');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid="case-contents"] img')].some((i) => i.complete && i.naturalWidth > 0),
      );
      const loaded = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="case-contents"] img')].filter((i) => i.complete && i.naturalWidth > 0).map((i) => i.src),
      );
      assert.ok(loaded.length > 0 && loaded.every((u) => u.includes('/img/')), `pictures drawn from the shop: ${loaded.slice(0, 2)}`);
      assert.deepEqual(seen.outside, [], 'no request left the shop');
      assert.ok(!seen.pictures.some((u) => u.startsWith(cdn.url)), 'the browser never asked the CDN');
      assert.ok(cdn.hits.length > 0, 'the shop asked the CDN');
      assert.equal(new Set(cdn.hits).size, cdn.hits.length, 'each picture fetched once');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await server.stop();
      cdn.close();
    }
  });
});
