import { describe, expect, it } from 'vitest';

import { createDictionaryStore, createLanguageSwitch, type Dict, type Importers } from './dictionaries';
import type { Language } from './language';
import { addTexts, translate } from './index';

/** Importers that count their calls and answer only when told to. */
function gatedImporters() {
  const calls: Record<Language, number> = { ru: 0, en: 0 };
  const release: Partial<Record<Language, (d: Dict) => void>> = {};
  const fail: Partial<Record<Language, (e: Error) => void>> = {};
  const importers: Importers = {
    ru: () => gate('ru'),
    en: () => gate('en'),
  };
  function gate(lang: Language): Promise<{ default: Dict }> {
    calls[lang] += 1;
    return new Promise((resolve, reject) => {
      release[lang] = (d) => resolve({ default: d });
      fail[lang] = reject;
    });
  }
  return { calls, release, fail, importers };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the dictionary loader', () => {
  it('loads a language once, however many ask at once or later', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const first = store.load('en');
    const second = store.load('en');
    expect(store.isLoaded('en')).toBe(false);
    g.release.en?.({ app: { title: 'Hello' } });
    await Promise.all([first, second]);
    await store.load('en');
    expect(g.calls).toEqual({ ru: 0, en: 1 });
    expect(store.isLoaded('en')).toBe(true);
    expect(store.isLoaded('ru')).toBe(false);
    expect(store.dictionaries.en).toEqual({ app: { title: 'Hello' } });
  });

  it('tries again after a failed load', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const failed = store.load('ru');
    g.fail.ru?.(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    expect(store.isLoaded('ru')).toBe(false);
    const retry = store.load('ru');
    g.release.ru?.({ app: { title: 'Привет' } });
    await retry;
    expect(g.calls.ru).toBe(2);
    expect(store.isLoaded('ru')).toBe(true);
  });

  it('keeps screens’ texts added before a language loads, beside its dictionary', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    store.addTexts({ ru: { farm: { title: 'Ферма' } }, en: { farm: { title: 'Farm' } } });
    const loading = store.load('en');
    g.release.en?.({ app: { title: 'Hello' } });
    await loading;
    expect(store.dictionaries.en).toEqual({ farm: { title: 'Farm' }, app: { title: 'Hello' } });
  });
});

describe('switching the language', () => {
  it('applies at once when the dictionary is loaded', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const loading = store.load('ru');
    g.release.ru?.({});
    await loading;
    const applied: Language[] = [];
    const pending = createLanguageSwitch(store, (l) => applied.push(l))('ru');
    expect(applied).toEqual(['ru']);
    await pending;
    expect(g.calls.ru).toBe(1);
  });

  it('waits for the dictionary before it switches', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const applied: Language[] = [];
    const pending = createLanguageSwitch(store, (l) => applied.push(l))('en');
    await tick();
    expect(applied).toEqual([]);
    g.release.en?.({ app: { title: 'Hello' } });
    await pending;
    expect(applied).toEqual(['en']);
  });

  it('lets the latest request win over a slower earlier one', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const applied: Language[] = [];
    const switchTo = createLanguageSwitch(store, (l) => applied.push(l));
    const toEn = switchTo('en');
    const toRu = switchTo('ru');
    g.release.ru?.({});
    await toRu;
    g.release.en?.({});
    await toEn;
    expect(applied).toEqual(['ru']);
  });

  it('keeps the current language when the load fails', async () => {
    const g = gatedImporters();
    const store = createDictionaryStore(g.importers);
    const applied: Language[] = [];
    const pending = createLanguageSwitch(store, (l) => applied.push(l))('en');
    g.fail.en?.(new Error('offline'));
    await expect(pending).rejects.toThrow('offline');
    expect(applied).toEqual([]);
  });
});

describe('a missing key', () => {
  it('falls back to the other language, then to the key itself (visible)', () => {
    addTexts({ ru: {}, en: { fallbackProbe: { onlyEnglish: 'Only in English' } } });
    expect(translate('ru', 'fallbackProbe.onlyEnglish')).toBe('Only in English');
    expect(translate('en', 'fallbackProbe.missing')).toBe('fallbackProbe.missing');
    expect(translate('ru', 'fallbackProbe.missing')).toBe('fallbackProbe.missing');
  });
});
