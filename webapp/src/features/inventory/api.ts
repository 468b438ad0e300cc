import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import { isGone } from './status';

type Schemas = components['schemas'];

// TODO(contract): the item of GET /user/items and GET /user/item/{id} once typed
/** docs/api.md "InventoryItem". */
export interface InventoryItem {
  id: number;
  weaponId?: string;
  name: string;
  variant?: string;
  iconUrl?: string;
  marketHashName?: string;
  tokenPrice: number | { formatted: string };
  rarity?: string;
  condition?: string;
  status?: string;
  /** Why a withdrawal failed: trade_url_invalid, inventory_private, trade_restricted, item_unavailable, steam_unavailable, inventory_full, no_offer, offer_expired, seller_reversed, other. */
  statusReasonCode?: string | null;
  /** The operator's optional note with that code. */
  statusReason?: string | null;
  owner?: string | { name: string };
  caseId?: string;
  openedAt?: string;
  /** The instance's wear (null for a vanilla ★ knife and items from before floats). */
  float?: number | null;
  /** Steam's English exterior name, or null. */
  exterior?: string | null;
  statTrak?: boolean;
  /** A ★ knife or glove. */
  special?: boolean;
  wearMin?: number | null;
  wearMax?: number | null;
  /** False for a skin won with bonus tokens: it can be kept or sold, not withdrawn. */
  withdrawable?: boolean;
  /** Automatic delivery of its latest withdrawal (queued, buying, bought, offer_sent, settling, settled, bounced, reversed, player_reversed, manual); null when manual or none. */
  deliveryState?: string | null;
}

// TODO(contract): the item of GET /items/{id}/public once typed
/** GET /items/{id}/public: what anyone may see of a shared skin. */
export interface PublicItem {
  id: number;
  weaponId?: string;
  name: string;
  marketHashName?: string;
  iconUrl?: string;
  rarity?: string;
  condition?: string;
  tokenPrice: number;
  owner?: string;
  float?: number | null;
  exterior?: string | null;
  statTrak?: boolean;
  special?: boolean;
  wearMin?: number | null;
  wearMax?: number | null;
}

export async function fetchItems(): Promise<InventoryItem[]> {
  const list = unwrapData<InventoryItem[]>(await api.get<unknown>('/user/items'));
  // Sold and revoked items never show in lists.
  return Array.isArray(list) ? list.filter((i) => !isGone(i.status)) : [];
}

/** Spec section 5: success and an item field, else 'Invalid response format'. */
export async function fetchItem(id: number | string): Promise<InventoryItem> {
  const body = await api.get<{ success?: boolean; item?: InventoryItem }>(`/user/item/${encodeURIComponent(String(id))}`);
  if (!body?.success || !body.item) throw new ApiError(200, 'bad_response', 'Invalid response format', body);
  return body.item;
}

/** `GET /items/{id}/public?ref=<owner's ref code>`: `404 item_not_found` unless the ref is the owner's. */
export async function fetchPublicItem(id: number | string, ref: string | null): Promise<PublicItem> {
  const body = await api.get<{ success?: boolean; item?: PublicItem }>(
    `/items/${encodeURIComponent(String(id))}/public`,
    { auth: false, query: ref ? { ref } : undefined },
  );
  if (!body?.success || !body.item) throw new ApiError(200, 'bad_response', 'Invalid response format', body);
  return body.item;
}

export async function sellItem(id: number): Promise<Partial<Schemas['SoldBody']>> {
  return (await api.post<Schemas['SoldBody'] | undefined>('/sales/sell', { item_id: id })) ?? {};
}

export async function requestWithdrawal(id: number, tradeUrl: string): Promise<InventoryItem | undefined> {
  const body = await api.post<{ item?: InventoryItem }>(`/user/item/${id}/request-withdrawal`, { trade_url: tradeUrl });
  return body?.item;
}

export async function prepareShare(id: number): Promise<string> {
  const body = await api.post<Schemas['Prepared'] | undefined>('/savePreparedInlineMessage', { item_id: id });
  if (!body?.id) throw new ApiError(200, 'bad_response', 'Invalid response format', body);
  return body.id;
}
