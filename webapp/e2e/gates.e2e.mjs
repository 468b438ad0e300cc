// The gates of issue 6: the /login development gate, the maintenance screen switched on by the
// operator CLI, and the not-in-Telegram notice when the server runs with a real bot token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { agreeToTerms, freePort, launchBrowser, openApp, reloadUntil, screenshotBothThemes, startServer, waitForBoot } from './harness.mjs';

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

describe('gates', () => {
  test('the development gate asks for the password the server knows', async () => {
    const server = await startServer({ DEV_GATE_PASSWORD: 'open-sesame' });
    try {
      const { page, errors, context } = await openApp(browser, server, '/cases');
      await page.waitForURL(/\/login$/);
      await page.waitForSelector('[data-testid="page-login"]');
      await screenshotBothThemes(page, 'login', '[data-testid="page-login"]');

      await page.fill('input[type="password"]', 'wrong');
      await page.click('button[type="submit"]');
      await page.waitForSelector('[role="alert"]');
      assert.match(await page.textContent('[data-testid="page-login"]'), /Неверный пароль|Wrong password/);
      // Reported once: under the field, not again in a toast.
      await page.waitForTimeout(500);
      assert.equal(await page.getByText(/Неверный пароль|Wrong password/).count(), 1, 'a wrong password is reported once');

      // The server's proof goes with the demo's init data and the sign-in.
      const gated = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path === '/api/v1/dev/init-data' || path === '/api/v1/auth') gated.push([path, r.headers()['x-dev-gate'] ?? null]);
      });
      await page.fill('input[type="password"]', 'open-sesame');
      await page.click('button[type="submit"]');
      await agreeToTerms(page);
      assert.ok(gated.some(([p]) => p === '/api/v1/auth'), `signed in after the gate (${JSON.stringify(gated)})`);
      assert.ok(gated.every(([, proof]) => typeof proof === 'string' && proof.length > 0), `every gated request carries X-Dev-Gate (${JSON.stringify(gated)})`);
      await page.waitForSelector('nav[aria-label="tabs"]');

      // Passed once, the gate stays open after a reload.
      await page.reload();
      await waitForBoot(page);
      await page.waitForSelector('nav[aria-label="tabs"]');
      assert.notEqual(new URL(page.url()).pathname, '/login');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('maintenance switched on by the operator replaces the app', async () => {
    const server = await startServer();
    try {
      const { page, context } = await openApp(browser, server);
      await agreeToTerms(page);
      await page.waitForSelector('nav[aria-label="tabs"]');

      server.cli('maintenance', 'on');
      await reloadUntil(page, '[data-testid="maintenance"]');
      assert.match(await page.textContent('[data-testid="maintenance"]'), /Технические работы|Maintenance/);
      await screenshotBothThemes(page, 'maintenance', '[data-testid="maintenance"]');

      server.cli('maintenance', 'off');
      await reloadUntil(page, 'nav[aria-label="tabs"]');
      await waitForBoot(page);
      await context.close();
    } finally {
      await server.stop();
    }
  });

  test('outside Telegram with a real bot token only the notice is shown', async () => {
    const deadPort = await freePort();
    const server = await startServer({
      TELEGRAM_BOT_TOKEN: '123:abc',
      TELEGRAM_API_URL: `http://127.0.0.1:${deadPort}`,
      WEBAPP_URL: 'https://fragbox.example.com',
      BOT_USERNAME: 'fragbox_test_bot',
    });
    try {
      const { page, context } = await openApp(browser, server);
      await page.waitForSelector('[data-testid="not-in-telegram"]');
      assert.equal(await page.isVisible('nav[aria-label="tabs"]'), false);
      const demo = await fetch(`${server.url}/api/v1/dev/init-data`);
      assert.equal(demo.status, 404, 'no demo init data with a real token');
      await screenshotBothThemes(page, 'not-in-telegram', '[data-testid="not-in-telegram"]');
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
