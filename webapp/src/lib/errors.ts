import { hasKey, type TFunction } from '../i18n';
import { clientErrorCodes, isApiError } from './api-client';
import { useSettings } from './settings';

/**
 * The text to show for a failure. The server's text is already in the player's language; the
 * client's own transport failures are translated by code (`errors.<code>` in the dictionaries),
 * and unknown failures fall back to `fallbackKey` (default: the generic error).
 */
export function errorText(e: unknown, t: TFunction, fallbackKey = 'common.error'): string {
  if (isApiError(e)) {
    const lang = useSettings.getState().language;
    const isClientCode = (Object.values(clientErrorCodes) as string[]).includes(e.code);
    // The app translates by code wherever the dictionaries know it (one text per code in both
    // languages); the server's own text covers the rest.
    if (hasKey(lang, `errors.${e.code}`)) return t(`errors.${e.code}`);
    if (e.status > 0 && e.message && !isClientCode) return e.message;
    if (hasKey(lang, `errors.${e.code}`)) return t(`errors.${e.code}`);
  }
  return t(fallbackKey);
}
