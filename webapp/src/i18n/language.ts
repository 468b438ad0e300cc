export type Language = 'ru' | 'en';

export const languages: readonly Language[] = ['ru', 'en'];

/**
 * Telegram language codes answered in Russian (spec section 9, with the ISO 639-1 codes the
 * spec's abbreviations stand for: be/by Belarusian, kk/kz Kazakh, tg/tj Tajik).
 * The server and the bot use the same list.
 */
const russianSpeaking = new Set(['ru', 'uk', 'be', 'by', 'kk', 'kz', 'uz', 'tg', 'tj']);

export function isLanguage(value: unknown): value is Language {
  return value === 'ru' || value === 'en';
}

/**
 * The interface language: a stored choice wins; with none, ru for the Russian-speaking
 * Telegram codes, en for any other known code, and ru when nothing is known.
 */
export function resolveLanguage(stored: string | null | undefined, telegramCode: string | null | undefined): Language {
  if (isLanguage(stored)) return stored;
  const code = (telegramCode ?? '').trim().toLowerCase().split(/[-_]/)[0];
  if (!code) return 'ru';
  return russianSpeaking.has(code) ? 'ru' : 'en';
}
