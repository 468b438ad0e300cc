import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import type { InventoryItem } from '../inventory';
import type { OpenAnswer, OpenFair } from './open-case';

// TODO(contract): the case item of GET /cases and GET /cases/{id} once typed
/** docs/api.md "CaseItem". */
export interface CaseItem {
  id: string;
  iconUrl?: string;
  icon_url?: string;
  marketHashName?: string;
  market_hash_name?: string;
  /** Absent in the case list (slim items: id, rarity, chance); the case detail has it. */
  name?: string;
  variant?: string;
  nameRu?: string;
  variantRu?: string;
  /** Absent in the case list. */
  tokenPrice?: number;
  /** The cheapest and dearest variant over exteriors and StatTrak™ (case detail). */
  priceMin?: number;
  priceMax?: number;
  rarity?: string;
  condition?: string;
  wearMin?: number | null;
  wearMax?: number | null;
  statTrak?: boolean;
  weight?: number;
  chance?: number;
}

// TODO(contract): the case of GET /cases and GET /cases/{id} once typed
/** docs/api.md "Case". */
export interface Case {
  id: string;
  name: string;
  nameRu?: string;
  image: string;
  tokens: number;
  items: CaseItem[];
}

export async function fetchCases(): Promise<Case[]> {
  const list = unwrapData<Case[]>(await api.get<unknown>('/cases', { auth: false }));
  return Array.isArray(list) ? list : [];
}

export async function fetchCase(id: string): Promise<Case> {
  const c = unwrapData<Case | null>(await api.get<unknown>(`/cases/${encodeURIComponent(id)}`, { auth: false }));
  if (!c || typeof c !== 'object' || !('id' in c)) throw new ApiError(404, 'case_not_found', 'Case not found');
  return c;
}

// TODO(contract): Opened.item, Opened.fair and OpenedItem once typed
/**
 * `Opened` from the contract, its `item` and `fair` (and `OpenedItem`'s) hand-written until the
 * document types them; `error` is the spec's text of a `success: false` answer.
 */
type OpenBody = Partial<Omit<components['schemas']['OpenedBody'], 'item' | 'fair' | 'items'>> & {
  error?: string;
  item?: InventoryItem;
  fair?: OpenFair;
  items?: Array<{ item: InventoryItem; fair?: OpenFair }> | null;
};

/**
 * POST /cases/{id}/open of `count` cases (1–5; a single open sends no count, as before); a
 * `success: false` answer raises the server's text (spec section 5).
 */
export async function openCase(caseId: string, telegramId: number, requestId: string, count = 1): Promise<OpenAnswer<InventoryItem>> {
  const payload: Record<string, unknown> = { telegramId, requestId };
  if (count > 1) payload.count = count;
  const body = await api.post<OpenBody>(`/cases/${encodeURIComponent(caseId)}/open`, payload);
  if (!body || body.success === false || !body.item) {
    throw new ApiError(200, 'open_failed', body?.error || 'Error while opening the case', body);
  }
  const items = Array.isArray(body.items) ? body.items.filter((d) => d && d.item) : undefined;
  return { item: body.item, balance: Number(body.balance), fair: body.fair, ...(items && items.length > 1 ? { items } : {}) };
}

export const itemIcon = (i: { iconUrl?: string; icon_url?: string }) => i.iconUrl ?? i.icon_url ?? '';
export const itemMarketName = (i: { marketHashName?: string; market_hash_name?: string; name?: string }) =>
  i.marketHashName ?? i.market_hash_name ?? i.name ?? '';
