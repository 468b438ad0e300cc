import { create } from 'zustand';

import { fetchPackages, type TokenPack } from './api';

interface PaymentsState {
  packages: TokenPack[];
  loading: boolean;
  error: string | null;
  fetchedAt: number;
  load: (force?: boolean) => Promise<void>;
}

export const usePayments = create<PaymentsState>((set, get) => ({
  packages: [],
  loading: false,
  error: null,
  fetchedAt: 0,
  load: async (force = false) => {
    if (get().loading || (!force && get().fetchedAt > 0)) return;
    set({ loading: true, error: null });
    try {
      set({ packages: await fetchPackages(), fetchedAt: Date.now(), loading: false });
    } catch (e) {
      set({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
}));
