import { api, ApiError, unwrapData } from '../../lib/api-client';

// TODO(contract): a day of GET /daily-reward/streak once typed
export interface StreakDay {
  date: string;
  claimed: boolean;
}

// TODO(contract): the answer of GET /daily-reward/streak once typed
/** docs/api.md GET /daily-reward/streak. */
export interface Streak {
  currentStreak: number;
  hasStreak: boolean;
  lastClaim: string | null;
  nextRewardAvailable: boolean;
  canClaimBonus: boolean;
  bonusAlreadyClaimed: boolean;
  streakBonusTokens: number;
  streakDays: StreakDay[];
}

export async function fetchStreak(): Promise<Streak> {
  const body = await api.get<{ success?: boolean; data?: Streak; error?: string }>('/daily-reward/streak');
  if (!body?.success || !body.data) throw new ApiError(200, 'streak_error', body?.error || 'streak', body);
  return body.data;
}

// TODO(contract): the answers of the daily-reward and subscription calls below once typed
export async function fetchCheck(): Promise<{ available: boolean; nextClaimAt?: string }> {
  return unwrapData(await api.get<unknown>('/daily-reward/check'));
}

export async function claimDaily(): Promise<{ tokensAwarded: number; balance?: number }> {
  return unwrapData(await api.post<unknown>('/daily-reward/claim'));
}

export async function claimStreakBonus(): Promise<{ tokensAwarded: number; balance?: number }> {
  return unwrapData(await api.post<unknown>('/daily-reward/claim-streak-bonus'));
}

export async function checkSubscription(): Promise<{ subscribed: boolean; tokensAwarded: number }> {
  return unwrapData(await api.post<unknown>('/subscription/check-subscription'));
}
