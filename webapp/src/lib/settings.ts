/**
 * The player's settings (language, theme, sound), persisted (spec section 3). The store lives in
 * `lib/` because the lowest layers read it (i18n's `useT`/`t`, number and date formats, error
 * texts, the palettes); screens reach it through `features/settings`, which adds the server call.
 *
 * `language` is always a language whose dictionary is loaded (i18n/dictionaries.ts): each way it
 * changes (Telegram's code, the server's stored choice, the player's pick) goes through one
 * switch that loads the dictionary first; `languageReady()` waits for it (the start awaits it
 * before the first render).
 */
import { create } from 'zustand';

import { appDictionaries, createLanguageSwitch } from '../i18n/dictionaries';
import { isLanguage, resolveLanguage, type Language } from '../i18n/language';
import { readBool, readString, storageKeys, writeBool, writeString } from './storage';

export type Theme = 'dark' | 'light';

/** The skins screen's order: newest first (the server's order), dearest first, rarest first. */
export type SkinSortChoice = 'recent' | 'price' | 'rarity';
const isSkinSort = (v: unknown): v is SkinSortChoice => v === 'recent' || v === 'price' || v === 'rarity';

export function isTheme(value: unknown): value is Theme {
  return value === 'dark' || value === 'light';
}

/**
 * The theme the demo's stand-in Telegram client reports (issue 32, point 10): the player's stored
 * choice, else the browser's `prefers-color-scheme` (a real client reports its own scheme; the
 * demo's stands in for it, so it follows the browser rather than always dark).
 */
export function demoClientTheme(chosen: Theme | null, prefersLight: boolean): Theme {
  return chosen ?? (prefersLight ? 'light' : 'dark');
}

/** Whether the browser asks for a light theme (false where it cannot say). */
export function browserPrefersLight(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;
}

/** Spec section 9: a stored choice wins; else Telegram's colour scheme; dark when unknown. */
export function resolveTheme(stored: string | null, telegramScheme: Theme | null): Theme {
  if (isTheme(stored)) return stored;
  return telegramScheme ?? 'dark';
}

interface SettingsState {
  language: Language;
  /** True once the player picked a language (then it is stored and wins over everything). */
  languageChosen: boolean;
  theme: Theme;
  themeChosen: boolean;
  soundEnabled: boolean;
  /** The skins screen's order, remembered across visits. */
  skinSort: SkinSortChoice;
  /** Telegram's own colour scheme, when known; the theme follows it until the player chooses. */
  telegramScheme: Theme | null;
  /** Applies what Telegram says about the player (language code, colour scheme). */
  adoptTelegram: (p: { languageCode?: string | null; colorScheme?: Theme | null }) => void;
  /** The server's idea of the language (profile `language`), used only without a local choice. */
  adoptServerLanguage: (language: unknown) => void;
  setLanguage: (language: Language) => void;
  setTheme: (theme: Theme) => void;
  setSoundEnabled: (on: boolean) => void;
  setSkinSort: (sort: SkinSortChoice) => void;
}

const storedLanguage = readString(storageKeys.language);
const storedTheme = readString(storageKeys.theme);
const storedSkinSort = readString(storageKeys.skinSort);

/** The last language switch asked for (resolved once its dictionary is loaded and it applied). */
let switching: Promise<void> | null = null;

export const useSettings = create<SettingsState>((set, get) => {
  const switchTo = createLanguageSwitch(appDictionaries, (language) => {
    if (get().language !== language) set({ language });
  });
  const switchLanguage = (language: Language): void => {
    const pending = switchTo(language);
    switching = pending;
    pending.catch((e: unknown) => console.warn(`dictionary ${language} failed to load`, e));
  };
  return {
    language: resolveLanguage(storedLanguage, null),
    languageChosen: isLanguage(storedLanguage),
    theme: resolveTheme(storedTheme, null),
    themeChosen: isTheme(storedTheme),
    soundEnabled: readBool(storageKeys.sound, true),
    skinSort: isSkinSort(storedSkinSort) ? storedSkinSort : 'recent',
    telegramScheme: null,
    adoptTelegram: ({ languageCode, colorScheme }) => {
      const s = get();
      set({
        telegramScheme: colorScheme ?? s.telegramScheme,
        theme: s.themeChosen ? s.theme : resolveTheme(null, colorScheme ?? s.telegramScheme),
      });
      if (!s.languageChosen && languageCode !== undefined) switchLanguage(resolveLanguage(null, languageCode));
    },
    adoptServerLanguage: (language) => {
      if (!get().languageChosen && isLanguage(language)) switchLanguage(language);
    },
    setLanguage: (language) => {
      writeString(storageKeys.language, language);
      set({ languageChosen: true });
      switchLanguage(language);
    },
    setTheme: (theme) => {
      writeString(storageKeys.theme, theme);
      set({ theme, themeChosen: true });
    },
    setSoundEnabled: (on) => {
      writeBool(storageKeys.sound, on);
      set({ soundEnabled: on });
    },
    setSkinSort: (skinSort) => {
      if (!isSkinSort(skinSort)) return;
      writeString(storageKeys.skinSort, skinSort);
      set({ skinSort });
    },
  };
});

/**
 * Resolves once the language last asked for is in effect (its dictionary loaded), or the
 * current one's dictionary is loaded when no switch was asked for; rejects when that load failed.
 */
export function languageReady(): Promise<void> {
  return switching ?? appDictionaries.load(useSettings.getState().language);
}
