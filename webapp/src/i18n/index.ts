import { useCallback } from 'react';

import { useSettings } from '../lib/settings';
import { appDictionaries, dictionaries, type Dict } from './dictionaries';
import type { Language } from './language';

export type Params = Record<string, string | number>;

/**
 * Texts a lazily loaded screen brings with it, kept out of the start-up bundle: the screen's
 * module adds them before it first renders (both languages, whichever dictionary is loaded).
 */
export function addTexts(extra: Record<Language, Dict>): void {
  appDictionaries.addTexts(extra);
}

function lookup(dict: Dict, key: string): string | undefined {
  let cur: string | Dict | undefined = dict;
  for (const part of key.split('.')) {
    if (cur === undefined || typeof cur === 'string') return undefined;
    cur = cur[part];
  }
  return typeof cur === 'string' ? cur : undefined;
}

const pluralRules: Record<Language, Intl.PluralRules> = {
  ru: new Intl.PluralRules('ru-RU'),
  en: new Intl.PluralRules('en-US'),
};

/**
 * Translates `key` ("section.name") in `lang`, replacing `{param}` placeholders.
 * With a numeric `count` param, `key_one` / `key_few` / `key_many` / `key_other` are tried first.
 * A missing key falls back to the other language (when its dictionary is loaded), then to the
 * key itself (visible in tests).
 */
export function translate(lang: Language, key: string, params?: Params): string {
  const dict = dictionaries[lang];
  let text: string | undefined;
  if (params && typeof params.count === 'number') {
    const form = pluralRules[lang].select(params.count);
    text = lookup(dict, `${key}_${form}`) ?? lookup(dict, `${key}_other`);
  }
  text ??= lookup(dict, key) ?? lookup(dictionaries[lang === 'ru' ? 'en' : 'ru'], key) ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** Whether a key exists in the current dictionaries (used to translate error codes). */
export function hasKey(lang: Language, key: string): boolean {
  return lookup(dictionaries[lang], key) !== undefined;
}

export type TFunction = (key: string, params?: Params) => string;

/** The translation function for the current language; re-renders on a language change. */
export function useT(): TFunction {
  const language = useSettings((s) => s.language);
  return useCallback((key: string, params?: Params) => translate(language, key, params), [language]);
}

/** For code outside React (toasts from stores): reads the current language at call time. */
export function t(key: string, params?: Params): string {
  return translate(useSettings.getState().language, key, params);
}

/** Flattens a dictionary into dotted keys (the ru/en parity test uses it). */
export function flattenKeys(dict: Dict, prefix = ''): string[] {
  return Object.entries(dict).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : flattenKeys(v, `${prefix}${k}.`),
  );
}

export { dictionaries, loadDictionary } from './dictionaries';
