// Journeys of the mini app shell (issue 6): demo sign-in, onboarding, tab bar, profile and
// settings persisted across reload, language and theme, trade URL, back button, deep link.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  agreeToTerms,
  apiAs,
  launchBrowser,
  newPhone,
  newPlayer,
  openApp,
  screenshotBothThemes,
  startServer,
  telegramEvents,
  waitForBoot,
} from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('mini app shell in demo mode', () => {
  test('a new player is signed in, agrees to the terms and lands on home with the tab bar', async () => {
    const { page, errors, context } = await openApp(browser, server);

    await page.waitForSelector('[data-testid="page-onboarding"]');
    assert.equal(await page.isDisabled('[data-testid="tg-main-button"]'), true, 'start is disabled until the terms are ticked');
    assert.equal(await page.isVisible('[data-testid="demo-badge"]'), true, 'demo badge shown');
    await screenshotBothThemes(page, 'onboarding', '[data-testid="page-onboarding"]');

    await agreeToTerms(page);
    await page.waitForSelector('nav[aria-label="tabs"]');
    assert.equal(new URL(page.url()).pathname, '/');
    const agreement = await apiAs(page, server, '/user/check-agreements');
    assert.equal(agreement.body.agreed, true, 'the agreement is stored on the server');

    const events = await telegramEvents(page);
    for (const e of ['web_app_ready', 'web_app_expand', 'web_app_request_fullscreen']) {
      assert.ok(events.includes(e), `Telegram got ${e} (saw ${events.join(', ')})`);
    }
    await screenshotBothThemes(page, 'home', 'nav[aria-label="tabs"]');

    // A reload keeps the same demo user and skips onboarding.
    const me1 = await apiAs(page, server, '/me');
    await page.reload();
    await waitForBoot(page);
    await page.waitForSelector('nav[aria-label="tabs"]');
    const me2 = await apiAs(page, server, '/me');
    assert.equal(me2.body.data.telegramId, me1.body.data.telegramId, 'same demo user after reload');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('tabs navigate with a light haptic, and profile settings persist across a reload', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { theme: null });

    await page.click('[data-tab="profile"]');
    await page.waitForSelector('[data-testid="page-profile"]');
    assert.equal(new URL(page.url()).pathname, '/profile');
    assert.ok((await telegramEvents(page)).includes('web_app_trigger_haptic_feedback'), 'tab tap gives haptic feedback');
    assert.match(await page.textContent('[data-testid="app-version"]'), /1\.0\.0/);
    assert.equal(await page.getAttribute('[data-tab="profile"]', 'aria-current'), 'page');
    await screenshotBothThemes(page, 'profile', '[data-testid="page-profile"]');

    // Theme: dark by default in demo (Telegram scheme unknown → dark), switch to light.
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    await page.click('[data-testid="setting-theme"] [role="switch"]');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');

    // Language: switch to the other one and see the tab labels change.
    const before = await page.textContent('[data-tab="profile"]');
    const target = before.includes('Профиль') ? 'English' : 'Русский';
    await page.click(`[data-testid="setting-language"] [role="radio"]:has-text("${target}")`);
    const expectedLabel = target === 'English' ? 'Profile' : 'Профиль';
    await page.waitForFunction((l) => document.querySelector('[data-tab="profile"]')?.textContent?.includes(l), expectedLabel);
    const expectedLang = target === 'English' ? 'en' : 'ru';
    // The choice is saved on the server too (the bot speaks it).
    await page.waitForTimeout(300);
    assert.equal((await apiAs(page, server, '/me')).body.data.language, expectedLang);

    // Sound off.
    await page.click('[data-testid="setting-sound"] [role="switch"]');
    assert.equal(await page.getAttribute('[data-testid="setting-sound"] [role="switch"]', 'aria-checked'), 'false');

    await page.reload();
    await waitForBoot(page);
    await page.waitForSelector('[data-testid="page-profile"]');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light', 'theme survives a reload');
    assert.ok((await page.textContent('[data-tab="profile"]')).includes(expectedLabel), 'language survives a reload');
    assert.equal(await page.getAttribute('[data-testid="setting-sound"] [role="switch"]', 'aria-checked'), 'false', 'sound survives a reload');
    assert.equal(await page.getAttribute('html', 'lang'), expectedLang);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the trade URL screen validates like the server, saves, and the back button returns', async () => {
    const { page, errors, context } = await newPlayer(browser, server, { theme: null });
    await page.click('[data-tab="profile"]');
    await page.click('[data-testid="profile-trade-url"]');
    await page.waitForSelector('[data-testid="page-trade-url"] textarea');
    assert.equal(await page.isVisible('nav[aria-label="tabs"]'), false, 'no tab bar on /trade-url');

    const field = '[data-testid="page-trade-url"] textarea';
    await page.fill(field, 'https://steamcommunity.com/tradeoffer/new/?partner=0&token=abc');
    assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
    assert.equal(await page.isDisabled('[data-testid="tg-main-button"]'), true);

    const good = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9';
    await page.fill(field, good);
    assert.equal(await page.getAttribute(field, 'aria-invalid'), 'false');
    await page.click('[data-testid="tg-main-button"]');
    await page.waitForSelector('[data-toast="success"]');
    assert.equal(await page.isDisabled('[data-testid="tg-main-button"]'), true, 'Save is off once saved (nothing changed)');
    assert.equal((await apiAs(page, server, '/user/trade-url')).body.tradeUrl, good);
    await screenshotBothThemes(page, 'trade-url', '[data-testid="page-trade-url"] textarea');
    assert.equal(await page.inputValue(field), good, 'prefilled from the server after a reload');

    // Telegram's back button (the demo stand-in) goes one step back.
    await page.click('[data-testid="tg-back"]');
    await page.waitForSelector('[data-testid="page-profile"]');
    assert.equal(await page.isVisible('[data-testid="tg-back"]'), false, 'no back button on a tab root');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a shared-skin deep link is remembered across onboarding', async () => {
    const { page, context } = await newPlayer(browser, server, { theme: null, path: '/?startapp=item_777_ref0123456789', landing: null });
    await page.waitForURL(/\/skin\/777$/);
    await context.close();
  });

  test('unknown paths say so and go home; /inventory shows the skins', async () => {
    const { page, context } = await newPlayer(browser, server, { theme: null });
    await page.goto(`${server.url}/no/such/screen`);
    await waitForBoot(page);
    // It says so first, then goes home.
    await page.waitForSelector('[data-testid="page-not-found"]');
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/inventory`);
    await waitForBoot(page);
    await page.waitForURL(/\/skins$/);
    await context.close();
  });

  test('cases, packages, referrals and items load at start, whatever screen opened', async () => {
    const phone = await newPhone(browser);
    const seen = new Set();
    phone.page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/v1/')) seen.add(path.slice('/api/v1'.length));
    });
    await phone.page.goto(`${server.url}/profile`);
    await waitForBoot(phone.page);
    await agreeToTerms(phone.page);
    const wanted = ['/cases', '/payments/packages', '/user/referrals', '/user/items'];
    for (let i = 0; i < 100 && !wanted.every((p) => seen.has(p)); i++) await phone.page.waitForTimeout(50);
    for (const p of wanted) assert.ok(seen.has(p), `${p} loaded at start (saw ${[...seen].join(', ')})`);
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });
});
