import { api, ApiError } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type TradeUrlAnswer = components['schemas']['TradeUrlAnswer'];

/** The saved trade URL (null when none). */
export async function getTradeUrl(): Promise<string | null> {
  // `trade_url`: the spec's other spelling, still read.
  const body = await api.get<(TradeUrlAnswer & { trade_url?: string | null }) | undefined>('/user/trade-url');
  return body?.tradeUrl ?? body?.trade_url ?? null;
}

/** Saves the trade URL; spec section 8: 'Failed to save trade URL' when success is false. */
export async function putTradeUrl(tradeUrl: string): Promise<string> {
  const body = await api.put<TradeUrlAnswer | undefined>('/user/trade-url', { tradeUrl });
  if (body?.success === false) throw new ApiError(200, 'save_failed', 'Failed to save trade URL', body);
  return body?.tradeUrl ?? tradeUrl;
}
