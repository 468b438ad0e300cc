import { api, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/** One invitee of `GET /user/referrals`. */
export type Referral = Schemas['Referral'];

/** `GET /user/referrals`: the player's invitees and earnings, one page. */
export type ReferralData = Schemas['ReferralPage'];

export async function fetchReferrals(page: number): Promise<ReferralData> {
  return unwrapData<ReferralData>(await api.get<unknown>('/user/referrals', { query: { page } }));
}
