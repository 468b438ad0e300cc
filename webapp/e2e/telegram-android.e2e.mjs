// The built mini app launched the way Telegram for Android launches it (issue 14): signed
// `tgWebAppData` in the URL hash, `window.TelegramWebviewProxy.postEvent` defined before the
// page loads, answers through `window.Telegram.WebView.receiveEvent`, against a `fragbox`
// started WITH a bot token and a fake Bot API. The events the app sends are recorded per
// screen and checked against what Telegram needs to draw its own controls.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeBotApi } from './fake-bot-api.mjs';
import { axeViolations, cheapestCase, launchBrowser, newPhone, SCREENSHOT_DIR, startServer } from './harness.mjs';

const TOKEN = '7000000001:E2E_secret-token';
const DARK = {
  bg_color: '#17212b',
  secondary_bg_color: '#0e1621',
  section_bg_color: '#1e2c3a',
  header_bg_color: '#17212b',
  bottom_bar_bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  accent_text_color: '#6ab2f2',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  destructive_text_color: '#ec3942',
  section_separator_color: '#0e1621',
};
const LIGHT = {
  bg_color: '#ffffff',
  secondary_bg_color: '#efeff4',
  section_bg_color: '#ffffff',
  header_bg_color: '#ffffff',
  bottom_bar_bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#8e8e93',
  link_color: '#2481cc',
  accent_text_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  destructive_text_color: '#ff3b30',
  section_separator_color: '#c8c7cc',
};

let fake;
let server;
let browser;

before(async () => {
  fake = await startFakeBotApi();
  server = await startServer({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: fake.url, WEBAPP_URL: 'https://app.fragbox.test', RATE_LIMITS: 'off' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

/** Init data signed as Telegram signs it for the bot's token (STACK-FACTS: init data). */
function signedInitData(user) {
  const pairs = [
    ['auth_date', String(Math.floor(Date.now() / 1000))],
    ['chat_instance', '-4123456789012345678'],
    ['chat_type', 'private'],
    ['query_id', 'AAHdF6IQAAAAAN0XohDhrOrc'],
    ['signature', 'c2lnbmF0dXJlLW5vdC1jaGVja2VkLWhlcmU'],
    ['user', JSON.stringify(user)],
  ];
  const check = [...pairs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(TOKEN).digest();
  const hash = createHmac('sha256', secret).update(check).digest('hex');
  return new URLSearchParams([...pairs, ['hash', hash]]).toString();
}

/** The URL Telegram for Android opens: the app's address with launch parameters in the hash. */
function launchUrl(user, theme = DARK) {
  const hash = new URLSearchParams([
    ['tgWebAppData', signedInitData(user)],
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'android'],
    ['tgWebAppThemeParams', JSON.stringify(theme)],
  ]);
  return `${server.url}/#${hash.toString()}`;
}

/**
 * Plays Telegram for Android inside the page: `TelegramWebviewProxy.postEvent` records every
 * call with the path it was made on and the screen then in the DOM (its `data-testid`, null
 * while only the splash is there), and answers the requests a client answers.
 */
function androidClient({ theme, insets }) {
  window.__proxy = [];
  const reply = (name, data) => setTimeout(() => window.Telegram?.WebView?.receiveEvent(name, data), 0);
  let fullscreen = false;
  window.TelegramWebviewProxy = {
    postEvent(type, json) {
      const data = json ? JSON.parse(json) : undefined;
      const screen = document.querySelector('[data-testid^="page-"]');
      window.__proxy.push([type, data ?? null, window.location.pathname, screen ? screen.getAttribute('data-testid') : null]);
      switch (type) {
        case 'web_app_request_theme':
          return reply('theme_changed', { theme_params: theme });
        case 'web_app_request_viewport':
          return reply('viewport_changed', { height: window.innerHeight, width: window.innerWidth, is_expanded: true, is_state_stable: true });
        case 'web_app_request_safe_area':
          return reply('safe_area_changed', insets.safe);
        case 'web_app_request_content_safe_area':
          return reply('content_safe_area_changed', fullscreen ? insets.content : { top: 0, bottom: 0, left: 0, right: 0 });
        case 'web_app_request_fullscreen':
          fullscreen = true;
          reply('fullscreen_changed', { is_fullscreen: true });
          return reply('content_safe_area_changed', insets.content);
        default:
          return undefined;
      }
    },
  };
}

const events = (page) => page.evaluate(() => window.__proxy);
const press = (page, name, data) => page.evaluate(([n, d]) => window.Telegram.WebView.receiveEvent(n, d), [name, data]);
/** The last state of a control the app set up (`web_app_setup_main_button` etc.). */
const last = (list, type) => [...list].reverse().find(([t]) => t === type)?.[1] ?? null;
const since = (list, n) => list.slice(n);

async function shot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `android-${name}.png`) });
}

describe('launched as Telegram for Android launches it', () => {
  test('the app drives Telegram’s own controls on every screen', async () => {
    const { page, context, errors } = await newPhone(browser, { colorScheme: 'dark', locale: 'en-US' });
    const insets = { safe: { top: 24, bottom: 16, left: 0, right: 0 }, content: { top: 46, bottom: 0, left: 0, right: 0 } };
    await page.addInitScript(androidClient, { theme: DARK, insets });
    // The agreement check answers late, so the splash stays up a while: a ready sent before the
    // first screen was drawn would be seen (the check below, not a timing assertion).
    const slowAgreement = async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    };
    await page.route('**/api/v1/user/check-agreements', slowAgreement);
    const user = { id: 5123456789, first_name: 'Ann', last_name: '', username: 'ann', language_code: 'en', allows_write_to_pm: true };
    await page.goto(launchUrl(user));

    // Onboarding: ready once, expand, fullscreen, colours, and the native "Start" button.
    await page.waitForSelector('[data-testid="page-onboarding"]');
    await page.waitForFunction(() => window.__proxy.some(([t, d]) => t === 'web_app_setup_main_button' && d?.is_visible));
    // The start-up calls go out one per task (lib/bridge-queue.ts), the viewport's after the
    // client answered: wait until the last of them was sent, then check them all.
    const launchEvents = ['web_app_ready', 'web_app_expand', 'web_app_request_fullscreen', 'web_app_set_header_color', 'web_app_set_background_color', 'web_app_set_bottom_bar_color', 'web_app_request_safe_area'];
    await page
      .waitForFunction((want) => want.every((n) => window.__proxy.some(([t]) => t === n)), launchEvents, { timeout: 15_000 })
      .catch(() => undefined);
    await page.unroute('**/api/v1/user/check-agreements', slowAgreement);
    let ev = await events(page);
    const names = ev.map(([t]) => t);
    assert.equal(names.filter((n) => n === 'web_app_ready').length, 1, 'web_app_ready is sent once');
    // Ready only once the first screen is drawn: onboarding is in the DOM by then (not the splash).
    assert.equal(ev.find(([t]) => t === 'web_app_ready')[3], 'page-onboarding', 'web_app_ready after the first screen is in the DOM');
    for (const n of launchEvents) {
      assert.ok(names.includes(n), `${n} sent (saw ${names.join(', ')})`);
    }
    assert.ok(names.indexOf('web_app_ready') < names.indexOf('web_app_setup_main_button') || names.includes('web_app_ready'));
    assert.equal(last(ev, 'web_app_set_header_color').color, DARK.bg_color, 'header painted in the theme');
    let main = last(ev, 'web_app_setup_main_button');
    assert.equal(main.text, 'Start');
    assert.equal(main.is_active, false, 'Start is off until the terms are accepted');
    assert.equal(last(ev, 'web_app_setup_back_button')?.is_visible ?? false, false, 'no back button on onboarding');
    assert.equal(await page.locator('[data-testid="onboarding-start"]').count(), 0, 'no in-page copy of the bottom button');
    // Safe areas: the page starts below the status bar and Telegram's fullscreen controls.
    await page.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue('--tg-viewport-content-safe-area-inset-top') === '46px');
    const top = await page.evaluate(() => document.querySelector('[data-testid="page-onboarding"] > *').getBoundingClientRect().top);
    assert.ok(top >= 70, `content starts below the insets (top ${top})`);
    await shot(page, 'onboarding');

    await page.click('[data-testid="terms-checkbox"]');
    await page.click('[data-testid="adult-checkbox"]');
    await page.waitForFunction(() => [...window.__proxy].reverse().find(([t]) => t === 'web_app_setup_main_button')?.[1]?.is_active === true);
    await press(page, 'main_button_pressed');

    // Home: no bottom button, no back button; a tab tap gives a haptic.
    await page.waitForSelector('[data-testid="page-home"]');
    await page.waitForFunction(() => [...window.__proxy].reverse().find(([t]) => t === 'web_app_setup_main_button')?.[1]?.is_visible === false);
    ev = await events(page);
    assert.equal(last(ev, 'web_app_setup_back_button')?.is_visible ?? false, false, 'no back button on a tab root');
    const beforeTab = ev.length;
    await page.click('[data-tab="cases"]');
    await page.waitForSelector('[data-testid="case-card"]');
    assert.ok(since(await events(page), beforeTab).some(([t]) => t === 'web_app_trigger_haptic_feedback'), 'tab tap gives a haptic');
    await shot(page, 'store');

    // Tokens to open with (a player with a bot token starts at 0).
    server.cli('grant', String(user.id), '500', '--reason', 'browser test');

    // Case (the catalog's cheapest): back button, "Open for <its price>" on the bottom button;
    // opening hides it, turns vertical swipes off and asks before closing.
    const kase = await cheapestCase(server);
    await page.goto(launchUrl(user).replace('/#', `/case/${kase.id}#`));
    await page.waitForSelector('[data-testid="fair-line"]');
    await page.waitForFunction(() => [...window.__proxy].reverse().find(([t]) => t === 'web_app_setup_main_button')?.[1]?.is_visible === true);
    ev = await events(page);
    assert.equal(last(ev, 'web_app_setup_back_button').is_visible, true, 'back button on a detail screen');
    main = last(ev, 'web_app_setup_main_button');
    assert.equal(main.text.replace(/[^\w ]/g, ''), `Open for ${kase.tokens}`, main.text);
    assert.equal(await page.locator('[data-testid="open-case"]').count(), 0);
    await shot(page, 'case');
    const beforeOpen = ev.length;
    await press(page, 'main_button_pressed');
    await page.waitForSelector('[data-testid="page-case"][data-phase="spinning"]');
    ev = await events(page);
    const during = since(ev, beforeOpen);
    assert.equal(last(during, 'web_app_setup_main_button').is_visible, false, 'the bottom button hides while opening');
    assert.equal(last(ev, 'web_app_setup_swipe_behavior').allow_vertical_swipe, false, 'vertical swipes off while spinning');
    assert.equal(last(during, 'web_app_setup_closing_behavior').need_confirmation, true, 'closing asks while an open is in flight');
    assert.equal(last(during, 'web_app_setup_back_button').is_visible, false, 'no back button while opening');

    // Result: a haptic on landing; "Sell for N" on the main button and "Open again" above it.
    await page.waitForURL(/\/case-result\/\d+/, { timeout: 20_000 });
    await page.waitForSelector('[data-testid="result-name"]');
    await page.waitForFunction(() => [...window.__proxy].reverse().find(([t]) => t === 'web_app_setup_secondary_button')?.[1]?.is_visible === true);
    ev = await events(page);
    const result = since(ev, beforeOpen);
    assert.ok(result.some(([t, d]) => t === 'web_app_trigger_haptic_feedback' && d?.type === 'notification'), 'a haptic on landing');
    assert.match(last(ev, 'web_app_setup_main_button').text, /^Sell for [\d.,]+$/);
    assert.equal(last(ev, 'web_app_setup_secondary_button').text, 'Open again');
    assert.equal(last(ev, 'web_app_setup_closing_behavior').need_confirmation, false, 'closing no longer asks');
    assert.equal(last(ev, 'web_app_setup_swipe_behavior').allow_vertical_swipe, true, 'swipes back on');
    await shot(page, 'result');

    // The sale through the bottom button: a haptic, back to the case.
    const beforeSell = ev.length;
    await press(page, 'main_button_pressed');
    await page.waitForURL((u) => u.pathname === `/case/${kase.id}`, { timeout: 15_000 });
    assert.ok(since(await events(page), beforeSell).some(([t, d]) => t === 'web_app_trigger_haptic_feedback' && d?.type === 'notification'), 'a haptic on the sale');

    // Telegram's back button leaves the case for the store.
    await press(page, 'back_button_pressed');
    await page.waitForURL(/\/cases$/);

    // The player switches Telegram to the light theme: the app follows at once.
    const beforeTheme = (await events(page)).length;
    await press(page, 'theme_changed', { theme_params: LIGHT });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.waitForFunction((n) => window.__proxy.slice(n).some(([t, d]) => t === 'web_app_set_header_color' && d?.color === '#ffffff'), beforeTheme);
    const found = await axeViolations(page, 'android light store');
    assert.deepEqual(found, []);
    await shot(page, 'store-light');

    assert.deepEqual(errors, []);
    await context.close();
  });
});
