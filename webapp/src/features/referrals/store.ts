import { create } from 'zustand';

import { fetchReferrals, type ReferralData } from './api';

/** Spec section 4: a refetch is skipped when the data is under 60 s old unless forced. */
export const REFERRALS_TTL_MS = 60_000;

interface ReferralsState {
  data: ReferralData | null;
  page: number;
  loading: boolean;
  error: string | null;
  fetchedAt: number;
  load: (page?: number, force?: boolean) => Promise<void>;
}

export const useReferrals = create<ReferralsState>((set, get) => ({
  data: null,
  page: 1,
  loading: false,
  error: null,
  fetchedAt: 0,
  load: async (page = get().page, force = false) => {
    const s = get();
    const samePage = page === s.page && s.data !== null;
    if (!force && samePage && Date.now() - s.fetchedAt < REFERRALS_TTL_MS) return;
    set({ loading: true, error: null, page });
    try {
      const data = await fetchReferrals(page);
      if (get().page === page) set({ data, fetchedAt: Date.now(), loading: false });
    } catch (e) {
      set({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
}));
