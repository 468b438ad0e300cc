import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/** One day of the streak's cycle. */
export type StreakDay = Schemas['StreakDay'];

/** `GET /daily-reward/streak`'s data. */
export type Streak = Schemas['Streak'];

export async function fetchStreak(): Promise<Streak> {
  // A refusal's `error` text is read too (`ErrorBody`), as the spec's `success: false` answer.
  const body = await api.get<Partial<Schemas['Answer_Streak']> & Partial<Pick<Schemas['ErrorBody'], 'error'>>>('/daily-reward/streak');
  if (!body?.success || !body.data) throw new ApiError(200, 'streak_error', body?.error || 'streak', body);
  return body.data;
}

export async function fetchCheck(): Promise<Schemas['Check']> {
  return unwrapData(await api.get<unknown>('/daily-reward/check'));
}

export async function claimDaily(): Promise<Schemas['Awarded']> {
  return unwrapData(await api.post<unknown>('/daily-reward/claim'));
}

export async function claimStreakBonus(): Promise<Schemas['Awarded']> {
  return unwrapData(await api.post<unknown>('/daily-reward/claim-streak-bonus'));
}

export async function checkSubscription(): Promise<Schemas['Subscription']> {
  return unwrapData(await api.post<unknown>('/subscription/check-subscription'));
}
