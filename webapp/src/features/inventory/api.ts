import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import { isGone } from './status';

type Schemas = components['schemas'];

/** A skin of the player's inventory: `GET /user/items`, `GET /user/item/{id}`, an open, a withdrawal, the best drop. */
export type InventoryItem = Schemas['ItemBody'];

/** `GET /items/{id}/public`: what anyone may see of a shared skin. */
export type PublicItem = Schemas['PublicItem'];

export async function fetchItems(): Promise<InventoryItem[]> {
  const list = unwrapData<InventoryItem[]>(await api.get<unknown>('/user/items'));
  // Sold and revoked items never show in lists.
  return Array.isArray(list) ? list.filter((i) => !isGone(i.status)) : [];
}

/** Spec section 5: success and an item field, else 'Invalid response format'. */
export async function fetchItem(id: number | string): Promise<InventoryItem> {
  const body = await api.get<Partial<Schemas['OneItem_ItemBody']> | undefined>(`/user/item/${encodeURIComponent(String(id))}`);
  if (!body?.success || !body.item) throw new ApiError(200, 'bad_response', 'Invalid response format', body);
  return body.item;
}

/** `GET /items/{id}/public?ref=<owner's ref code>`: `404 item_not_found` unless the ref is the owner's. */
export async function fetchPublicItem(id: number | string, ref: string | null): Promise<PublicItem> {
  const body = await api.get<Partial<Schemas['OneItem_PublicItem']> | undefined>(
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
  const body = await api.post<Partial<Schemas['Requested']> | undefined>(`/user/item/${id}/request-withdrawal`, { trade_url: tradeUrl });
  return body?.item;
}

export async function prepareShare(id: number): Promise<string> {
  const body = await api.post<Schemas['Prepared'] | undefined>('/savePreparedInlineMessage', { item_id: id });
  if (!body?.id) throw new ApiError(200, 'bad_response', 'Invalid response format', body);
  return body.id;
}
