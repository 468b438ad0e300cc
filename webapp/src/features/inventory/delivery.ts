/**
 * Automatic delivery (docs/api.md `deliveryState`): a market buys the withdrawn skin and the
 * seller sends it as a Steam trade offer. Its texts travel with the screens that show a
 * withdrawal (the skin and withdraw screens), not in the start-up bundle: a screen calls
 * `ensureDeliveryTexts()` once at load, as the goods texts do.
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

/** Where a player accepts the Steam trade offers sent to them. */
export const STEAM_INCOMING_OFFERS_URL = 'https://steamcommunity.com/my/tradeoffers';

/** The states the skin screen explains (bounced and reversed ones show their reason instead). */
export const DELIVERY_STATES = ['queued', 'buying', 'bought', 'offer_sent', 'settling', 'settled', 'manual'] as const;

/** The i18n key that explains a delivery state, or null when there is nothing to explain. */
export function deliveryKey(state: string | null | undefined): string | null {
  return state && (DELIVERY_STATES as readonly string[]).includes(state) ? `delivery.${state}` : null;
}

/** A Steam trade offer waits for the player to accept it. */
export function awaitsAcceptance(item: { status?: string; deliveryState?: string | null }): boolean {
  return item.status === 'pending' && item.deliveryState === 'offer_sent';
}

let added = false;

export function ensureDeliveryTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
