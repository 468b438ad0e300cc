import type { Language } from '../../i18n/language';
import { api } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

/** Saves the interface language on the server so the bot speaks it too. */
export function saveLanguage(language: Language): Promise<components['schemas']['Ok']> {
  return api.put('/user/settings', { language });
}
