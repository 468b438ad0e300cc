/**
 * The colours the page draws with, derived from the active palette (Telegram's theme params
 * when the chosen theme is Telegram's own, else ours) so that every text meets WCAG AA:
 * 4.5:1 on each background it sits on, whatever palette a client sends. Written as inline
 * custom properties on <html>, which win over theme.css's fallbacks.
 */
import type { Theme } from '../features/settings';
import { ensureContrast, isDark, readableOn } from '../lib/contrast';
import { palettes } from '../lib/theme-palettes';

/** Brand and rarity hues (theme.css keeps the same values as fallbacks). */
const FIXED = {
  brand: '#f5a524',
  success: '#31b545',
  'rarity-consumer': '#b0c3d9',
  'rarity-industrial': '#5e98d9',
  'rarity-milspec': '#4b69ff',
  'rarity-restricted': '#8847ff',
  'rarity-classified': '#d32ce6',
  'rarity-covert': '#eb4b4b',
  'rarity-gold': '#e4ae39',
} as const;

export interface PageColors {
  bg: string;
  secondaryBg: string;
  sectionBg: string;
  text: string;
  /** A button's fill and its text, at 4.5:1 between them (the native bottom button uses them too). */
  button: string;
  buttonText: string;
  vars: Record<string, string>;
}

type Source = Partial<Record<'bg' | 'secondaryBg' | 'sectionBg' | 'text' | 'hint' | 'link' | 'accent' | 'button' | 'buttonText' | 'destructive', string>>;

/** Telegram's theme params as bound by the SDK (`--tg-theme-*`), where present. */
export function telegramSource(): Source {
  const css = getComputedStyle(document.documentElement);
  const get = (k: string) => css.getPropertyValue(`--tg-theme-${k}`).trim() || undefined;
  return {
    bg: get('bg-color'),
    secondaryBg: get('secondary-bg-color'),
    sectionBg: get('section-bg-color'),
    text: get('text-color'),
    hint: get('hint-color'),
    link: get('link-color'),
    accent: get('accent-text-color'),
    button: get('button-color'),
    buttonText: get('button-text-color'),
    destructive: get('destructive-text-color'),
  };
}

/** Our palette for `theme`, overlaid with the client's colours when they are to be followed. */
export function pageColors(theme: Theme, telegram: Source | null): PageColors {
  const p = palettes[theme];
  // A client palette of the other brightness (a custom theme) would break our own hues: the
  // theme attribute decides, so only a palette of the same brightness is followed.
  const src = telegram && telegram.bg && isDark(telegram.bg) === (theme === 'dark') ? telegram : null;
  const use = (k: keyof Source, fallback: string) => src?.[k] || fallback;
  const base = use('bg', p.bg_color);
  const secondaryBg = use('secondaryBg', p.secondary_bg_color);
  const sectionBg = use('sectionBg', p.section_bg_color);
  const text = use('text', p.text_color);
  const backgrounds = [base, secondaryBg, sectionBg];
  const dark = theme === 'dark';
  const away = dark ? '#ffffff' : '#000000';
  const readable = (c: string) => ensureContrast(c, backgrounds, 4.5, away);

  const buttonText = use('buttonText', p.button_text_color);
  // The fill moves away from its text until the pair reaches 4.5:1 (Telegram's blue with white
  // text is 3.7:1).
  const button = ensureContrast(use('button', p.button_color), [buttonText], 4.5, readableOn(buttonText) === '#ffffff' ? '#ffffff' : '#000000');

  const vars: Record<string, string> = {
    '--c-bg': base,
    '--c-secondary-bg': secondaryBg,
    '--c-section-bg': sectionBg,
    '--c-text': readable(text),
    '--c-hint': readable(use('hint', p.hint_color)),
    '--c-link': readable(use('link', p.link_color)),
    '--c-accent': readable(use('accent', p.accent_text_color)),
    '--c-button': button,
    '--c-button-text': buttonText,
    '--c-destructive': readable(use('destructive', p.destructive_text_color)),
  };
  for (const [k, v] of Object.entries(FIXED)) vars[`--c-${k}`] = readable(v);
  // Green text also sits on its own green tint (status badges): a margin above 4.5:1.
  vars['--c-success'] = ensureContrast(FIXED.success, backgrounds, 6.5, away);
  // Fills that keep the brand's own colour (badges, chests) under dark text.
  vars['--c-brand-fill'] = FIXED.brand;
  vars['--c-danger-fill'] = ensureContrast(use('destructive', p.destructive_text_color), ['#ffffff'], 4.5, '#000000');
  return { bg: base, secondaryBg, sectionBg, text, button, buttonText, vars };
}

let applied: string[] = [];

/** Writes the colours onto <html>; answers them for the native buttons. */
export function applyPageColors(theme: Theme, followTelegram: boolean): PageColors {
  const colors = pageColors(theme, followTelegram ? telegramSource() : null);
  const style = document.documentElement.style;
  for (const k of applied) if (!(k in colors.vars)) style.removeProperty(k);
  for (const [k, v] of Object.entries(colors.vars)) style.setProperty(k, v);
  applied = Object.keys(colors.vars);
  return colors;
}
