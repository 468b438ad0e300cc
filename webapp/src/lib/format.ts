/**
 * Numbers and dates in the chosen interface language's locale: ru-RU for Russian ("12 345,5",
 * "23.11.2026"), en-US for English ("12,345.5", "11/23/2026").
 */
import type { Language } from '../i18n/language';
import { useSettings } from './settings';

export const LOCALES: Record<Language, string> = { ru: 'ru-RU', en: 'en-US' };

interface Formatters {
  tokens2: Intl.NumberFormat;
  tokens0: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  date: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
}

const cache = new Map<string, Formatters>();

function formatters(lang?: Language): Formatters {
  const locale = LOCALES[lang ?? currentLanguage()] ?? 'ru-RU';
  let f = cache.get(locale);
  if (!f) {
    f = {
      tokens2: new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: 2 }),
      tokens0: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
      percent: new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: 3 }),
      date: new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' }),
      dateTime: new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
    };
    cache.set(locale, f);
  }
  return f;
}

function currentLanguage(): Language {
  try {
    return useSettings.getState().language;
  } catch {
    return 'ru';
  }
}

function toNumber(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number(value.replace(',', '.')) : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** A token amount with up to 2 decimals: 12345.5 → "12 345,5" (ru) / "12,345.5" (en). */
export function formatTokens(value: number | string | null | undefined, lang?: Language): string {
  return formatters(lang).tokens2.format(toNumber(value));
}

/** A token price without decimals (the store's case cards). */
export function formatTokensInt(value: number | string | null | undefined, lang?: Language): string {
  return formatters(lang).tokens0.format(toNumber(value));
}

/** A whole count (Stars, friends): grouped as the language groups thousands. */
export const formatInteger = formatTokensInt;

/** A chance in percent with up to 3 decimals, without the sign: 0.459 → "0,459" / "0.459". */
export function formatPercent(value: number, lang?: Language): string {
  return formatters(lang).percent.format(value);
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "22.11.2026" / "11/22/2026" */
export function formatDate(value: string | number | Date, lang?: Language): string {
  return formatters(lang).date.format(toDate(value));
}

/** "22.11.2026, 10:15" / "11/22/2026, 10:15 AM" */
export function formatDateTime(value: string | number | Date, lang?: Language): string {
  return formatters(lang).dateTime.format(toDate(value));
}

/** "10:15" / "10:15 AM" */
export function formatTime(value: string | number | Date, lang?: Language): string {
  return formatters(lang).time.format(toDate(value));
}
