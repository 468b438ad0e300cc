import { api, unwrapData } from '../../lib/api-client';

// TODO(contract): the answer of GET/PUT /me/limits, POST /me/self-exclusion once typed
/** docs/api.md `GET /me/limits`. */
export interface Limits {
  /** Tokens per UTC day; null: no limit. */
  dailyLimit: number | null;
  /** A raise or removal waiting 24 hours: the limit it sets (null: none) and when. */
  pendingChange: { dailyLimit: number | null; effectiveAt: string } | null;
  spentToday: number;
  dayResetsAt: string;
  selfExclusion: { active: boolean; until: string | null; permanent: boolean };
}

// TODO(contract): the answer of GET /me/stats once typed
/** docs/api.md `GET /me/stats`. */
export interface PlayStats {
  casesOpened: number;
  tokensSpent: number;
  tokensWonBack: number;
  bestDrop: { id: number; name: string; variant?: string; tokenPrice: number; rarity: string; iconUrl?: string } | null;
}

export type ExclusionPeriod = '24h' | '7d' | '30d' | 'permanent';

// TODO(contract): the answer of POST /promo/redeem once typed
export async function redeemPromo(code: string): Promise<{ tokensAwarded: number; balance: number }> {
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
