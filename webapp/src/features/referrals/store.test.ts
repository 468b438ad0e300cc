import { beforeEach, describe, expect, it, vi } from 'vitest';

const page = (n: number) => ({
  referralCode: 'abc',
  stats: { invitedCount: 0, activeUsers: 0, totalEarned: 0 },
  referrals: [],
  pagination: { page: n, limit: 10, total: 0, totalPages: 2 },
});
const fetchReferrals = vi.fn(async (n: number) => page(n));
vi.mock('./api', () => ({ fetchReferrals }));

const { REFERRALS_TTL_MS, useReferrals } = await import('./store');

describe('referral data cache', () => {
  beforeEach(() => {
    fetchReferrals.mockClear();
    useReferrals.setState({ data: null, page: 1, fetchedAt: 0, loading: false, error: null });
  });

  it('skips a refetch under 60 s unless forced, and fetches another page', async () => {
    expect(REFERRALS_TTL_MS).toBe(60_000);
    await useReferrals.getState().load(1);
    await useReferrals.getState().load(1);
    expect(fetchReferrals).toHaveBeenCalledTimes(1);
    await useReferrals.getState().load(1, true);
    expect(fetchReferrals).toHaveBeenCalledTimes(2);
    await useReferrals.getState().load(2);
    expect(fetchReferrals).toHaveBeenLastCalledWith(2);
    expect(useReferrals.getState().data?.pagination.page).toBe(2);
  });
});
