/**
 * Skin statuses and what they allow (spec section 4): pending, sent and error
 * are known; anything else counts as received (available).
 */

export type SkinTab = 'received' | 'pending' | 'sent';
export const SKIN_TABS: readonly SkinTab[] = ['received', 'pending', 'sent'];

export interface HasStatus {
  status?: string | null;
}

export function tabOf(status: string | null | undefined): SkinTab {
  if (status === 'pending') return 'pending';
  if (status === 'sent') return 'sent';
  return 'received';
}

/** Sold and revoked (taken back after a refund) items have left the inventory. */
export const isGone = (status: string | null | undefined) => status === 'sold' || status === 'revoked';

export function filterByTab<T extends HasStatus>(items: readonly T[], tab: SkinTab): T[] {
  return items.filter((i) => !isGone(i.status) && tabOf(i.status) === tab);
}

/** Why a withdrawal failed, as the server's codes; anything else reads as `other`. */
export const REASON_CODES = [
  'trade_url_invalid',
  'inventory_private',
  'trade_restricted',
  'item_unavailable',
  'steam_unavailable',
  // An automatic withdrawal that came back (texts with the delivery texts: ensureDeliveryTexts).
  'inventory_full',
  'no_offer',
  'offer_expired',
  'seller_reversed',
  'other',
] as const;

/** Reason codes of an automatic withdrawal that came back: their texts travel with the delivery texts. */
const DELIVERY_REASON_CODES: readonly string[] = ['inventory_full', 'no_offer', 'offer_expired', 'seller_reversed'];

/** The i18n key of a failure reason code (unknown codes fall back to `other`). */
export function reasonKey(code: string | null | undefined): string {
  if (DELIVERY_REASON_CODES.includes(code ?? '')) return `delivery.reason.${code}`;
  return `reason.${(REASON_CODES as readonly string[]).includes(code ?? '') ? code : 'other'}`;
}

export const isError = (status: string | null | undefined) => status === 'error';

/** Sell and withdraw are off while pending or sent, and while an action runs. */
export function canTrade(status: string | null | undefined, busy: boolean): boolean {
  return !busy && status !== 'pending' && status !== 'sent';
}

/** The withdraw button disappears once the skin was sent. */
export const showWithdraw = (status: string | null | undefined) => status !== 'sent';

/** The fixed bottom sell button: loaded, no error, not pending (nor sent: it cannot be sold). */
export function showSellBar(status: string | null | undefined): boolean {
  return status !== 'pending' && status !== 'sent' && status !== 'error';
}

/** "received" -> "Received": the spec shows statuses with a capital first letter. */
export function capitalize(text: string): string {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

/** Splits "AK-47 | Redline" at the first pipe into name and description. */
export function splitMarketName(marketName: string | null | undefined): { name: string; description: string } {
  const s = marketName ?? '';
  const i = s.indexOf('|');
  if (i < 0) return { name: s.trim(), description: '' };
  return { name: s.slice(0, i).trim(), description: s.slice(i + 1).trim() };
}

/**
 * Weapon and finish as the screens show them: the answer's own `name` and `variant` (in the
 * request's language); only an answer without `variant` is split from its name. Never split from
 * `marketHashName`, which is Steam-exact (`StatTrak™ AK-47 | Redline (Field-Tested)`).
 */
export function itemNames(item: { name?: string; variant?: string | null; marketHashName?: string }): { name: string; description: string } {
  if (typeof item.variant === 'string') return { name: item.name ?? '', description: item.variant };
  return splitMarketName(item.name || item.marketHashName);
}

/**
 * "AK-47 | Redline" in the player's language (the answer's `name` and `variant`), for texts that
 * name a skin: popups, toasts, pickers. Never the Steam-exact `marketHashName`, which is English
 * and belongs only where the market's name matters, labelled (issue 32, point 6).
 */
export function skinLabel(item: { name?: string; variant?: string | null; marketHashName?: string }): string {
  const { name, description } = itemNames(item);
  return description ? `${name} | ${description}` : name;
}

/** Owner is a string or an object with a name. */
export function ownerName(owner: unknown): string {
  if (typeof owner === 'string') return owner;
  if (owner && typeof owner === 'object' && 'name' in owner) return String((owner as { name: unknown }).name ?? '');
  return '';
}

/** tokenPrice is a number or an object with a formatted field. */
export function priceValue(price: unknown): number | string {
  if (typeof price === 'number') return price;
  if (price && typeof price === 'object' && 'formatted' in price) return String((price as { formatted: unknown }).formatted);
  const n = Number(price);
  return Number.isFinite(n) ? n : 0;
}
