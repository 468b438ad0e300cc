import { create } from 'zustand';

import { fetchTickets, type TicketSummary } from './api';

interface SupportState {
  tickets: TicketSummary[];
  loading: boolean;
  loaded: boolean;
  error: string | null;
  load: () => Promise<void>;
}

export const useSupport = create<SupportState>((set) => ({
  tickets: [],
  loading: false,
  loaded: false,
  error: null,
  load: async () => {
    set({ loading: true, error: null });
    try {
      set({ tickets: await fetchTickets(), loading: false, loaded: true });
    } catch (e) {
      set({ loading: false, loaded: true, error: e instanceof Error ? e.message : String(e) });
    }
  },
}));
