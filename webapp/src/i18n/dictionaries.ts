/**
 * The start-up dictionaries (`ru.json`, `en.json`), one chunk each: a player needs one, so only
 * the active language's loads at start (public/first-slide.js preloads it, the app awaits it
 * before its first render), and a switch loads the other before it takes effect (lib/settings.ts,
 * `switchLanguage`). Screens' own texts (`addTexts`) join whichever dictionaries exist, loaded or
 * not, so they are there when a language loads later. This module imports nothing from the
 * settings store: the store imports it to wait for a dictionary before it changes the language.
 */
import type { Language } from './language';

export type Dict = { [key: string]: string | Dict };

export type Importers = Record<Language, () => Promise<{ default: Dict }>>;

export function merge(into: Dict, extra: Dict): void {
  for (const [k, v] of Object.entries(extra)) {
    const cur = into[k];
    if (typeof v === 'string' || typeof cur !== 'object') into[k] = v;
    else merge(cur, v);
  }
}

export interface DictionaryStore {
  /** Every language's texts so far: its loaded dictionary (once loaded) and screens' texts. */
  dictionaries: Record<Language, Dict>;
  isLoaded: (lang: Language) => boolean;
  /** Loads `lang`'s dictionary once (a second call shares the first load; a failed one may be retried). */
  load: (lang: Language) => Promise<void>;
  addTexts: (extra: Record<Language, Dict>) => void;
}

export function createDictionaryStore(importers: Importers): DictionaryStore {
  const dictionaries: Record<Language, Dict> = { ru: {}, en: {} };
  const loaded = new Set<Language>();
  const loading = new Map<Language, Promise<void>>();
  return {
    dictionaries,
    isLoaded: (lang) => loaded.has(lang),
    load: (lang) => {
      let pending = loading.get(lang);
      if (!pending) {
        pending = importers[lang]().then(
          (module) => {
            merge(dictionaries[lang], module.default);
            loaded.add(lang);
          },
          (e: unknown) => {
            loading.delete(lang);
            throw e;
          },
        );
        loading.set(lang, pending);
      }
      return pending;
    },
    addTexts: (extra) => {
      merge(dictionaries.ru, extra.ru);
      merge(dictionaries.en, extra.en);
    },
  };
}

let source: Importers | null = null;

/**
 * Names where the start-up dictionaries come from: `import('./i18n/ru.json')` and the like,
 * called by the app's start (src/start.tsx) before anything loads, and by the unit tests' setup.
 * The `import()` is written there, not here, because a chunk's `import()` uses Vite's preload
 * helper, which lives in the entry chunk: a shell module using it would pull the helper into
 * the shell chunk (a chunk group takes its modules' dependencies), and the entry would then
 * wait for the shell and React before it could start (src/main.tsx).
 */
export function setDictionarySource(importers: Importers): void {
  source = importers;
}

function fromSource(lang: Language): Promise<{ default: Dict }> {
  if (!source) return Promise.reject(new Error('no dictionary source (setDictionarySource)'));
  return source[lang]();
}

/** The app's dictionaries (each JSON file its own chunk, see vite.config.ts). */
export const appDictionaries = createDictionaryStore({ ru: () => fromSource('ru'), en: () => fromSource('en') });

export const { dictionaries, isLoaded: isDictionaryLoaded, load: loadDictionary } = appDictionaries;

/**
 * The one way the language changes: `apply(lang)` runs at once when `lang`'s dictionary is
 * loaded, else once it is (so no screen draws keys in between). The latest request wins: a
 * load that finishes after a newer switch applies nothing. A failed load keeps the current
 * language (reported on the returned promise).
 */
export function createLanguageSwitch(
  dicts: Pick<DictionaryStore, 'isLoaded' | 'load'>,
  apply: (lang: Language) => void,
): (lang: Language) => Promise<void> {
  let latest = 0;
  return (lang) => {
    const ticket = (latest += 1);
    if (dicts.isLoaded(lang)) {
      apply(lang);
      return Promise.resolve();
    }
    return dicts.load(lang).then(() => {
      if (ticket === latest) apply(lang);
    });
  };
}
