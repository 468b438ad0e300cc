import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import type { InventoryItem } from '../inventory';
import type { OpenAnswer } from './open-case';

type Schemas = components['schemas'];

/**
 * A skin of a case as the app shows it: the store list's items carry `CaseOdds` (id, rarity,
 * chance), a case's page (`GET /cases/{id}`) and the fairness verifier the whole `CaseSkin`; the
 * won item's strip entry may be built from the inventory item. Only `id` is always there.
 */
export type CaseItem = Pick<Schemas['CaseSkin'], 'id'> & Partial<Schemas['CaseSkin']>;

/** A case of the store list (`GET /cases`): its card, each skin's `CaseOdds`. */
type CaseCard = Schemas['Data_Vec_CaseBody_CaseOdds']['data'][number];
/** A case's page (`GET /cases/{id}`): the same card with a `CaseSkin` each. */
type CasePage = Schemas['Data_CaseBody_CaseSkin']['data'];

/** A case of the store: its card from the list or its page (the same fields; the page's items are whole). */
export type Case = Omit<CaseCard | CasePage, 'items'> & { items: CaseItem[] };

export async function fetchCases(): Promise<Case[]> {
  const list = unwrapData<CaseCard[]>(await api.get<unknown>('/cases', { auth: false }));
  return Array.isArray(list) ? list : [];
}

export async function fetchCase(id: string): Promise<Case> {
  const c = unwrapData<CasePage | null>(await api.get<unknown>(`/cases/${encodeURIComponent(id)}`, { auth: false }));
  if (!c || typeof c !== 'object' || !('id' in c)) throw new ApiError(404, 'case_not_found', 'Case not found');
  return c;
}

/** `OpenedBody`, read defensively; `error` is the text of the spec's `success: false` answer (`ErrorBody`'s). */
type OpenBody = Partial<Schemas['OpenedBody']> & Partial<Pick<Schemas['ErrorBody'], 'error'>>;

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
