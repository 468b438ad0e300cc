import type { Language } from '../../i18n/language';
import { api } from '../../lib/api-client';

/** Saves the interface language on the server so the bot speaks it too. */
export function saveLanguage(language: Language): Promise<unknown> {
  return api.put('/user/settings', { language });
}
