import { beforeEach, describe, expect, it } from 'vitest';

import { demoClientTheme, resolveTheme, useSettings } from './settings';

beforeEach(() => {
  useSettings.setState({ language: 'ru', languageChosen: false, theme: 'dark', themeChosen: false, soundEnabled: true, telegramScheme: null });
});

describe('settings store', () => {
  it('follows Telegram until the player chooses, then persists the choice', () => {
    useSettings.getState().adoptTelegram({ languageCode: 'en', colorScheme: 'light' });
    expect(useSettings.getState()).toMatchObject({ language: 'en', theme: 'light' });

    useSettings.getState().setLanguage('ru');
    useSettings.getState().setTheme('dark');
    useSettings.getState().adoptTelegram({ languageCode: 'en', colorScheme: 'light' });

    expect(useSettings.getState()).toMatchObject({ language: 'ru', theme: 'dark' });
    expect(localStorage.getItem('app_language')).toBe('ru');
    expect(localStorage.getItem('app_theme')).toBe('dark');
  });

  it('follows a Telegram theme switch without touching the language', () => {
    useSettings.getState().adoptTelegram({ languageCode: 'en', colorScheme: 'dark' });
    useSettings.getState().adoptTelegram({ colorScheme: 'light' });
    expect(useSettings.getState()).toMatchObject({ language: 'en', theme: 'light', telegramScheme: 'light' });
  });

  it('takes the server language only without a local choice', () => {
    useSettings.getState().adoptServerLanguage('en');
    expect(useSettings.getState().language).toBe('en');
    useSettings.getState().setLanguage('ru');
    useSettings.getState().adoptServerLanguage('en');
    expect(useSettings.getState().language).toBe('ru');
    useSettings.getState().adoptServerLanguage('de');
    expect(useSettings.getState().language).toBe('ru');
  });

  it('remembers the skins order and ignores an unknown one', () => {
    useSettings.getState().setSkinSort('price');
    expect(useSettings.getState().skinSort).toBe('price');
    expect(localStorage.getItem('skins_sort')).toBe('price');
    useSettings.getState().setSkinSort('bogus' as never);
    expect(useSettings.getState().skinSort).toBe('price');
  });

  it('stores the sound switch as isSoundEnabled', () => {
    useSettings.getState().setSoundEnabled(false);
    expect(localStorage.getItem('isSoundEnabled')).toBe('false');
    expect(useSettings.getState().soundEnabled).toBe(false);
  });

  it('defaults the theme to dark when Telegram says nothing', () => {
    expect(resolveTheme(null, null)).toBe('dark');
    expect(resolveTheme(null, 'light')).toBe('light');
    expect(resolveTheme('light', 'dark')).toBe('light');
    expect(resolveTheme('purple', null)).toBe('dark');
  });
});

describe('the demo client’s theme (issue 32, point 10)', () => {
  it('follows the browser’s preference unless the player chose a theme', () => {
    expect(demoClientTheme(null, true)).toBe('light');
    expect(demoClientTheme(null, false)).toBe('dark');
    expect(demoClientTheme('dark', true)).toBe('dark');
    expect(demoClientTheme('light', false)).toBe('light');
  });
});
