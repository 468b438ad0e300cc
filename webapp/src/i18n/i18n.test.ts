import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import en from './en.json';
import { flattenKeys, translate } from './index';
import { resolveLanguage } from './language';
import ru from './ru.json';

describe('dictionaries', () => {
  it('ru and en have exactly the same keys (plural forms differ by language)', () => {
    const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
    const ruKeys = new Set(flattenKeys(ru).map(base));
    const enKeys = new Set(flattenKeys(en).map(base));
    const missingInEn = [...ruKeys].filter((k) => !enKeys.has(k));
    const missingInRu = [...enKeys].filter((k) => !ruKeys.has(k));
    expect({ missingInEn, missingInRu }).toEqual({ missingInEn: [], missingInRu: [] });
  });

  it('has no empty texts', () => {
    for (const [lang, dict] of [['ru', ru], ['en', en]] as const) {
      for (const key of flattenKeys(dict)) {
        expect(translate(lang, key).trim(), `${lang}:${key}`).not.toBe('');
      }
    }
  });

  it('keeps the spec Russian texts verbatim', () => {
    expect(translate('ru', 'app.maintenanceTitle')).toBe('Технические работы');
    expect(translate('ru', 'login.title')).toBe('Приложение в разработке');
    expect(translate('ru', 'login.wrongPassword')).toBe('Неверный пароль');
    expect(translate('ru', 'errors.network_error')).toBe('Не удалось связаться с сервером. Проверьте подключение к интернету');
  });

  it('replaces placeholders', () => {
    expect(translate('en', 'common.tokenCount', { count: 2, amount: '2' })).toBe('2 tokens');
  });
});

describe('language rule', () => {
  it('a stored choice wins over the Telegram language', () => {
    expect(resolveLanguage('en', 'ru')).toBe('en');
    expect(resolveLanguage('ru', 'de')).toBe('ru');
  });

  it('answers Russian for the Russian-speaking Telegram codes', () => {
    for (const code of ['ru', 'uk', 'be', 'by', 'kk', 'kz', 'uz', 'tg', 'tj', 'ru-RU', 'UK']) {
      expect(resolveLanguage(null, code), code).toBe('ru');
    }
  });

  it('answers English for any other known code', () => {
    for (const code of ['en', 'de', 'pt-br', 'fr']) expect(resolveLanguage(null, code), code).toBe('en');
  });

  it('answers Russian when nothing is known', () => {
    expect(resolveLanguage(null, null)).toBe('ru');
    expect(resolveLanguage(undefined, '')).toBe('ru');
    expect(resolveLanguage('xx', undefined)).toBe('ru');
  });
});

describe('plurals follow the language', () => {
  it('counts tokens the Russian way, fractions included', async () => {
    const { translate } = await import('./index');
    const { formatTokens } = await import('../lib/format');
    const count = (n: number) => translate('ru', 'common.tokenCount', { amount: formatTokens(n, 'ru'), count: n });
    expect([1, 2, 5, 21, 6.5].map(count)).toEqual(['1 токен', '2 токена', '5 токенов', '21 токен', '6,5 токена']);
    const en = (n: number) => translate('en', 'common.tokenCount', { amount: formatTokens(n, 'en'), count: n });
    expect([1, 2, 6.5].map(en)).toEqual(['1 token', '2 tokens', '6.5 tokens']);
  });
});

/** Every dictionary of the app: the start-up ones and those the screens and features bring. */
function allDictionaries(): Array<{ file: string; text: string }> {
  const root = resolve(import.meta.dirname, '..');
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\/(ru|en)\.json$/.test(p)) out.push({ file: p, text: readFileSync(p, 'utf8') });
    }
  };
  walk(root);
  return out;
}

describe('one currency name (issue 32, point 6)', () => {
  it('calls the currency tokens (токены) in every dictionary, never frags', () => {
    const dicts = allDictionaries();
    expect(dicts.length).toBeGreaterThan(20);
    for (const { file, text } of dicts) {
      const words = text.replace(/FragBox/g, '');
      expect(words, file).not.toMatch(/\bfrags?\b|фраг/i);
    }
  });
});
