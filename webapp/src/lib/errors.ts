import { hasKey, type Params, type TFunction } from '../i18n';
import { formatDateTime, formatTime, formatTokens } from './format';
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
    // Refusals that carry figures are said by the app, in the player's language and local time.
    const own = withFigures(e.code, e.body);
    if (own && hasKey(lang, `errors.${own.key}`)) return t(`errors.${own.key}`, own.params);
    const needsFigures = FIGURE_CODES.includes(e.code);
    const isClientCode = (Object.values(clientErrorCodes) as string[]).includes(e.code);
    // The app translates by code wherever the dictionaries know it (one text per code in both
    // languages); the server's own text covers the rest.
    if (!needsFigures && hasKey(lang, `errors.${e.code}`)) return t(`errors.${e.code}`);
    if (e.status > 0 && e.message && !isClientCode) return e.message;
    if (!needsFigures && hasKey(lang, `errors.${e.code}`)) return t(`errors.${e.code}`);
  }
  return t(fallbackKey);
}

/** Codes whose texts need the figures the answer carries. */
const FIGURE_CODES = ['self_excluded', 'self_exclusion_active', 'spend_limit'];

/**
 * The text key and figures of a refusal the server sends with figures (issue 32): a break's end
 * in local time (the server writes UTC), a spend limit's tokens left today and its reset time.
 */
export function withFigures(code: string, body: unknown): { key: string; params: Params } | null {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (code === 'self_excluded' || code === 'self_exclusion_active') {
    const until = typeof b.until === 'string' ? new Date(b.until) : null;
    if (b.permanent === true || !until || Number.isNaN(until.getTime())) return { key: `${code}_permanent`, params: {} };
    return { key: code, params: { until: formatDateTime(until) } };
  }
  if (code === 'spend_limit') {
    const limit = Number(b.limit);
    const spent = Number(b.spent);
    const resets = typeof b.resetsAt === 'string' ? new Date(b.resetsAt) : null;
    if (!Number.isFinite(limit) || !Number.isFinite(spent) || !resets || Number.isNaN(resets.getTime())) return null;
    return {
      key: code,
      params: { left: formatTokens(Math.max(0, limit - spent)), limit: formatTokens(limit), spent: formatTokens(spent), time: formatTime(resets) },
    };
  }
  return null;
}
