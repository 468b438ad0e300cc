import { api, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/**
 * `GET /me/limits` (and `PUT /me/limits`, `POST /me/self-exclusion`): the daily limit in tokens
 * (null: none), a raise or removal waiting 24 hours, today's spending and the self-exclusion.
 */
export type Limits = Schemas['Limits'];

/** `GET /me/stats`: the player's own figures. */
export type PlayStats = Schemas['Stats'];

/** `POST /me/self-exclusion`'s period: the document says `string`; the app sends only these. */
export type ExclusionPeriod = '24h' | '7d' | '30d' | 'permanent';

export async function redeemPromo(code: string): Promise<Schemas['Awarded']> {
  return unwrapData(await api.post<unknown>('/promo/redeem', { code }));
}

export async function fetchLimits(): Promise<Limits> {
  return unwrapData(await api.get<unknown>('/me/limits'));
}

export async function putDailyLimit(dailyLimit: number | null): Promise<Limits> {
  return unwrapData(await api.put<unknown>('/me/limits', { dailyLimit }));
}

export async function postSelfExclusion(period: ExclusionPeriod): Promise<Limits> {
  return unwrapData(await api.post<unknown>('/me/self-exclusion', { period }));
}

export async function fetchStats(): Promise<PlayStats> {
  return unwrapData(await api.get<unknown>('/me/stats'));
}
