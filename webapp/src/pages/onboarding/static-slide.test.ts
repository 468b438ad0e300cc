import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import en from './i18n/en.json';
import ru from './i18n/ru.json';

// index.html's static copy of the first slide (a first visit's first paint) says what the app says.
const html = readFileSync(fileURLToPath(new URL('../../../index.html', import.meta.url)), 'utf8');

describe('index.html’s static first slide', () => {
  it.each([
    ['ru', ru],
    ['en', en],
  ] as const)('has the %s texts of onboarding’s first slide, terms, 18+ and start', (lang, d) => {
    const o = d.onboarding;
    for (const text of [o.slide1Title, o.slide1Text, o.start, d.adult.confirm, d.adult.under]) {
      expect(html).toContain(`<span lang="${lang}">${text}</span>`);
    }
    expect(html).toContain(`${o.agreePrefix} <a>${o.terms}</a> ${o.and} <a>${o.privacy}</a>`);
  });

  it('is hidden from assistive technology and offers nothing to press', () => {
    expect(html).toMatch(/<div class="fs" id="first-slide" aria-hidden="true" inert>/);
    const copy = html.slice(html.indexOf('id="first-slide"'), html.indexOf('<div id="root">'));
    expect(copy.match(/<input /g)).toHaveLength(2);
    expect(copy.match(/<input type="checkbox" disabled \/>/g)).toHaveLength(2);
    expect(copy).toContain('<button type="button" disabled>');
    expect(copy).not.toContain('href=');
    expect(copy).not.toContain('data-testid');
  });
});
