/**
 * The server's trade-URL rule (docs/api.md), checked on the client so the save button can
 * be disabled: exactly `https://steamcommunity.com/tradeoffer/new/?partner=<n>&token=<t>`,
 * `partner` a Steam account id from 1 to 4294967295, `token` 1–64 of `[A-Za-z0-9_-]`.
 */
const TRADE_URL = /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d+)&token=([A-Za-z0-9_-]+)$/;

export const MAX_STEAM_ACCOUNT_ID = 4294967295;

export function isValidTradeUrl(value: string): boolean {
  const m = TRADE_URL.exec(value.trim());
  if (!m) return false;
  if (m[2].length > 64) return false;
  // Digits only, so no sign or exponent; compare without losing precision on long inputs.
  const partner = m[1].replace(/^0+/, '');
  if (!partner || partner.length > 10) return false;
  const n = Number(partner);
  return n >= 1 && n <= MAX_STEAM_ACCOUNT_ID;
}

/** Steam's page where a player finds their trade URL. */
export const TRADE_URL_HELP = 'https://steamcommunity.com/my/tradeoffers/privacy#trade_offer_access_url';
