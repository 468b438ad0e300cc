import { api, unwrapData } from '../../lib/api-client';

// TODO(contract): a referral of GET /user/referrals once typed
export interface Referral {
  telegramId: number;
  firstName: string;
  lastName: string;
  username: string | null;
  avatarUrl: string | null;
  joinedAt: string;
  firstCaseOpenedAt: string | null;
  tokensEarned: number;
}

// TODO(contract): the answer of GET /user/referrals once typed
export interface ReferralData {
  referralCode: string;
  inviteLink?: string;
  stats: { invitedCount: number; activeUsers: number; totalEarned: number };
  referrals: Referral[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export async function fetchReferrals(page: number): Promise<ReferralData> {
  return unwrapData<ReferralData>(await api.get<unknown>('/user/referrals', { query: { page } }));
}
