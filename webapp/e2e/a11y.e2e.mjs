// axe-core on every screen of the mini app, in the light and the dark theme (issue 14): no
// serious or critical violation anywhere. Each screen is reached as a player reaches it, in
// demo mode against the real `fragbox` binary.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { agreeToTerms, apiAs, axeViolations, cheapestCase, launchBrowser, newPhone, SCREENSHOT_DIR, startServer, waitForBoot } from './harness.mjs';

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

async function apiPost(page, path, body = {}) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Every screen at 390×844, per theme and language, for a look (webapp/screenshots/). */
async function shot(page, label, theme, language) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `a11y-${label.replace(/\s+/g, '-')}-${theme}-${language}.png`) });
}

async function go(page, path) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Like `go`, with navigation state (the router reads `history.state.usr`). */
async function goWith(page, path, state) {
  await page.evaluate(
    ([p, usr]) => {
      window.history.pushState({ usr, key: 'e2e', idx: (window.history.state?.idx ?? 0) + 1 }, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    },
    [path, state],
  );
}

/** [label, how to get there, selector that shows it is drawn] for every screen. */
function screens(ids) {
  return [
    ['home', (p) => go(p, '/'), '[data-testid="page-home"]'],
    ['daily sheet', (p) => p.click('[data-testid="open-daily"]'), '[data-testid="daily-claim"], [data-testid="daily-countdown"]'],
    ['store', (p) => go(p, '/cases'), '[data-testid="case-card"]'],
    ['odds sheet', (p) => p.locator('[data-testid="case-card"]').first().getByRole('button').nth(1).click(), '[data-testid="odds-sheet"] li'],
    ['case', (p) => go(p, `/case/${ids.case}`), '[data-testid="fair-line"]'],
    ['case result', (p) => go(p, `/case-result/${ids.item}`), '[data-testid="result-name"]'],
    ['results of three', (p) => goWith(p, '/case-results', ids.several), '[data-testid="results-card"]'],
    ['my skins', (p) => go(p, '/skins'), '[data-testid="skin-card"]'],
    ['skin', (p) => go(p, `/skin/${ids.item}`), '[data-testid="skin-withdraw"]'],
    ['sell confirmation', (p) => p.click('[data-testid="tg-main-button"]'), '[data-testid="tg-popup"]'],
    ['withdraw', (p) => p.click('[data-testid="tg-popup-cancel"]').then(() => p.click('[data-testid="skin-withdraw"]')), '[data-testid="page-withdraw"]'],
    ['packages', (p) => go(p, '/packages'), '[data-testid="package"]'],
    ['friends', (p) => go(p, '/referrals'), '[data-testid="ref-invited"]'],
    ['profile', (p) => go(p, '/profile'), '[data-testid="page-profile"]'],
    ['trade url', (p) => go(p, '/trade-url'), '[data-testid="page-trade-url"] textarea'],
    ['farm', (p) => go(p, '/farm'), 'main'],
    ['support', (p) => go(p, '/support'), '[data-testid="faq"]'],
    ['create ticket', (p) => p.click('[data-testid="create-ticket-button"]'), '[data-testid="ticket-topic"]'],
    ['ticket', (p) => go(p, `/support/ticket/${ids.ticket}`), '[data-testid="msg-support"]'],
    ['fairness', (p) => go(p, '/fair'), '[data-testid="fair-hash"]'],
  ];
}

describe('accessibility (axe) on every screen', () => {
  for (const [theme, language] of [
    ['light', 'ru'],
    ['dark', 'en'],
    ['dark', 'ru'],
    ['light', 'en'],
  ]) {
    test(`no serious or critical violation in the ${theme} theme (${language})`, async () => {
      const { page, context, errors } = await newPhone(browser, { colorScheme: theme, locale: language === 'ru' ? 'ru-RU' : 'en-US' });
      await page.addInitScript(
        ([t, l]) => {
          localStorage.setItem('app_theme', t);
          localStorage.setItem('app_language', l);
        },
        [theme, language],
      );
      await page.goto(server.url + '/');
      await waitForBoot(page);
      await page.waitForSelector('[data-testid="page-onboarding"]');
      const found = await axeViolations(page, 'onboarding');
      await shot(page, `onboarding`, theme, language);

      await agreeToTerms(page);
      await page.waitForSelector('[data-testid="page-home"]');
      // Setup through the API: an item to look at and a ticket with support's reply.
      const me = (await apiAs(page, server, '/me')).body.data;
      const kase = await cheapestCase(server);
      const opened = await apiPost(page, `/cases/${kase.id}/open`, { telegramId: me.telegramId, requestId: `a11y-${theme}-${Date.now()}` });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const ticket = await apiPost(page, '/support/tickets', { theme: 'bug', message: 'The button does not respond' });
      assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
      const three = await apiPost(page, `/cases/${kase.id}/open`, { telegramId: me.telegramId, requestId: `a11y-3-${theme}-${Date.now()}`, count: 3 });
      assert.equal(three.status, 200, JSON.stringify(three.body));
      const several = { weapons: three.body.items.map((d) => d.item), caseId: kase.id, caseCost: kase.tokens };
      const ids = { item: opened.body.item.id, ticket: ticket.body.ticket.id, case: kase.id, several };
      await page.reload();
      await waitForBoot(page);

      for (const [label, reach, ready] of screens(ids)) {
        await reach(page);
        await page.waitForSelector(ready);
        await page.waitForTimeout(300);
        found.push(...(await axeViolations(page, `${theme} ${language} ${label}`)));
        await shot(page, label, theme, language);
      }
      assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
