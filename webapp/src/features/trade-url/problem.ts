/**
 * What is wrong with a trade link, in words a player can act on. The rule is the server's
 * (validate.ts); this names the first thing that breaks it, in the order a player would fix
 * them: the link itself, then Steam's host, then the trade-offer path, then each parameter.
 */
import { MAX_STEAM_ACCOUNT_ID } from './validate';

export type TradeUrlProblem =
  | 'empty'
  | 'not_link'
  | 'not_https'
  | 'not_steam'
  | 'not_trade_offer'
  | 'missing_partner'
  | 'bad_partner'
  | 'missing_token'
  | 'bad_token'
  | 'extra_parts';

const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** Null for a valid trade link, else the first problem. */
export function tradeUrlProblem(raw: string): TradeUrlProblem | null {
  const value = raw.trim();
  if (!value) return 'empty';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not_link';
  }
  if (url.hostname !== 'steamcommunity.com') return 'not_steam';
  if (url.protocol !== 'https:') return 'not_https';
  if (url.pathname !== '/tradeoffer/new/' || url.username || url.password || url.port) return 'not_trade_offer';
  const beforeHash = value.split('#')[0]!;
  const q = beforeHash.indexOf('?');
  const pairs = q >= 0 && q < beforeHash.length - 1 ? beforeHash.slice(q + 1).split('&').map((p) => p.split('=')) : [];
  const partner = pairs.find(([k]) => k === 'partner');
  const token = pairs.find(([k]) => k === 'token');
  if (!partner || !partner[1]) return 'missing_partner';
  if (!/^\d+$/.test(partner[1]) || !validPartner(partner[1])) return 'bad_partner';
  if (!token || !token[1]) return 'missing_token';
  if (partner.length !== 2 || token.length !== 2 || !TOKEN.test(token[1])) return 'bad_token';
  // Exactly `?partner=…&token=…`: anything else (order, extra parameters, a fragment) is refused.
  if (pairs.length !== 2 || pairs[0] !== partner || url.hash) return 'extra_parts';
  return null;
}

function validPartner(digits: string): boolean {
  const p = digits.replace(/^0+/, '');
  return p.length > 0 && p.length <= 10 && Number(p) >= 1 && Number(p) <= MAX_STEAM_ACCOUNT_ID;
}

/** The i18n key that explains a problem. */
export const tradeUrlProblemKey = (p: TradeUrlProblem) => `tradeUrl.problem.${p}`;
