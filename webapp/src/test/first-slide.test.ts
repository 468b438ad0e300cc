/**
 * public/first-slide.js, run as the browser runs it (a fresh script context with a stand-in
 * document): which dictionary it preloads beside the app's scripts, by the same rule the app
 * resolves the language with (i18n/language.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

const SCRIPT = readFileSync(resolve(import.meta.dirname, '../../public/first-slide.js'), 'utf8');

interface Added {
  tag: string;
  rel?: string;
  href?: string;
  src?: string;
}

interface Visit {
  stored?: Record<string, string>;
  /** Telegram's launch parameters in the hash (`tgWebAppData` with a user's `language_code`). */
  telegramCode?: string;
  browserLanguages?: string[];
  path?: string;
}

function run({ stored = {}, telegramCode, browserLanguages = ['ru-RU'], path = '/' }: Visit) {
  const added: Added[] = [];
  const attributes: Record<string, string> = {};
  const hash = new URLSearchParams();
  if (telegramCode !== undefined) {
    hash.set('tgWebAppData', new URLSearchParams({ user: JSON.stringify({ id: 1, language_code: telegramCode }) }).toString());
  }
  const document = {
    currentScript: {
      dataset: { entry: '/assets/index.js', preload: '/assets/start.js /assets/shell.js', ru: '/assets/ru.js', en: '/assets/en.js' },
    },
    readyState: 'complete',
    // Hidden: the scripts are added at once (no paint to wait for).
    visibilityState: 'hidden',
    documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) },
    createElement: (tag: string) => {
      const element: Added & { setAttribute: () => void } = { tag, setAttribute: () => undefined };
      return element;
    },
    head: { appendChild: (e: Added) => added.push(e) },
    addEventListener: () => undefined,
  };
  runInNewContext(SCRIPT, {
    document,
    localStorage: { getItem: (k: string) => stored[k] ?? null },
    location: { pathname: path, hash: `#${hash.toString()}` },
    navigator: { languages: browserLanguages, language: browserLanguages[0] },
    matchMedia: () => ({ matches: false }),
    URLSearchParams,
    setTimeout,
  });
  const preloads = added.filter((e) => e.rel === 'modulepreload').map((e) => e.href);
  const scripts = added.filter((e) => e.tag === 'script').map((e) => e.src);
  return { preloads, scripts, attributes };
}

describe('the first slide’s script', () => {
  it('adds the entry once and preloads the app’s chunks with the player’s dictionary', () => {
    const { scripts, preloads } = run({ telegramCode: 'ru' });
    expect(scripts).toEqual(['/assets/index.js']);
    expect(preloads).toEqual(['/assets/start.js', '/assets/shell.js', '/assets/ru.js']);
  });

  it('preloads the stored language’s dictionary over Telegram’s code', () => {
    expect(run({ stored: { app_language: 'en' }, telegramCode: 'ru' }).preloads).toContain('/assets/en.js');
    expect(run({ stored: { app_language: 'ru' }, telegramCode: 'de' }).preloads).toContain('/assets/ru.js');
  });

  it('answers Russian for the Russian-speaking Telegram codes and English for the others', () => {
    for (const code of ['uk', 'kk', 'be', 'ru-RU']) expect(run({ telegramCode: code }).preloads, code).toContain('/assets/ru.js');
    for (const code of ['de', 'en', 'pt-br']) expect(run({ telegramCode: code }).preloads, code).toContain('/assets/en.js');
  });

  it('outside Telegram (the demo) follows the browser’s language', () => {
    expect(run({ browserLanguages: ['en-US', 'ru'] }).preloads).toContain('/assets/en.js');
    expect(run({ browserLanguages: ['ru-RU'] }).preloads).toContain('/assets/ru.js');
  });

  it('preloads exactly one dictionary', () => {
    const { preloads } = run({ telegramCode: 'de' });
    expect(preloads.filter((p) => p === '/assets/ru.js' || p === '/assets/en.js')).toEqual(['/assets/en.js']);
  });

  it('preloads the dictionary for a returning player too (no static slide)', () => {
    const visit = run({ stored: { token: 'abc', app_language: 'en' }, path: '/cases' });
    expect(visit.attributes['data-first-slide']).toBeUndefined();
    expect(visit.preloads).toContain('/assets/en.js');
  });

  it('shows the static slide in the player’s language on a first visit', () => {
    expect(run({ telegramCode: 'de' }).attributes).toMatchObject({ lang: 'en', 'data-first-slide': 'tg' });
  });
});
