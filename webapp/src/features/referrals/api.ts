import { api, unwrapData } from '../../lib/api-client';

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
