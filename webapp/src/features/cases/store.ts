import { create } from 'zustand';

import { fetchCases, type Case } from './api';

interface CasesState {
  cases: Case[];
  loading: boolean;
  error: string | null;
  fetchedAt: number;
  load: (force?: boolean) => Promise<void>;
  byId: (id: string) => Case | undefined;
}

/** The catalog changes only on a deploy: one load per session unless forced (the server sends an ETag). */
export const useCases = create<CasesState>((set, get) => ({
  cases: [],
  loading: false,
  error: null,
  fetchedAt: 0,
  load: async (force = false) => {
    if (get().loading || (!force && get().fetchedAt > 0)) return;
    set({ loading: true, error: null });
    try {
      set({ cases: await fetchCases(), fetchedAt: Date.now(), loading: false });
    } catch (e) {
      set({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
  byId: (id) => get().cases.find((c) => c.id === id),
}));

/** A skin's display name ("AK-47 | Redline") from the catalog; never the raw id when it is known. */
export function skinName(cases: readonly Case[], itemId: string | null | undefined): string {
  if (!itemId) return '—';
  for (const c of cases) {
    const it = c.items.find((i) => i.id === itemId);
    if (it) return it.variant ? `${it.name} | ${it.variant}` : it.name;
  }
  return itemId;
}
