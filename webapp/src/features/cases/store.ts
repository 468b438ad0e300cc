import { create } from 'zustand';

import { fetchCase, fetchCases, type Case } from './api';

interface CasesState {
  /** The store list: slim items (id, rarity, chance) only. */
  cases: Case[];
  loading: boolean;
  error: string | null;
  fetchedAt: number;
  /** Case details (full items: names in both languages, pictures, price ranges, wear), by id. */
  details: Record<string, Case>;
  load: (force?: boolean) => Promise<void>;
  /** One case's detail, fetched once per session (the server sends an ETag). */
  loadDetail: (id: string) => Promise<Case>;
  byId: (id: string) => Case | undefined;
}

const inFlight = new Map<string, Promise<Case>>();

/** The catalog changes only on a deploy: one load per session unless forced (the server sends an ETag). */
export const useCases = create<CasesState>((set, get) => ({
  cases: [],
  loading: false,
  error: null,
  fetchedAt: 0,
  details: {},
  load: async (force = false) => {
    if (get().loading || (!force && get().fetchedAt > 0)) return;
    set({ loading: true, error: null });
    try {
      set({ cases: await fetchCases(), fetchedAt: Date.now(), loading: false });
    } catch (e) {
      set({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
  loadDetail: (id) => {
    const have = get().details[id];
    if (have) return Promise.resolve(have);
    let p = inFlight.get(id);
    if (!p) {
      p = fetchCase(id)
        .then((c) => {
          set((s) => ({ details: { ...s.details, [id]: c } }));
          return c;
        })
        .finally(() => inFlight.delete(id));
      inFlight.set(id, p);
    }
    return p;
  },
  byId: (id) => get().cases.find((c) => c.id === id),
}));

/**
 * A skin's display name ("AK-47 | Redline") from the case details (the store list carries no
 * names), in Russian when `lang` is ru and the detail has it; the raw id when no detail knows it.
 */
export function skinName(details: Readonly<Record<string, Case>>, itemId: string | null | undefined, lang = 'en'): string {
  if (!itemId) return '—';
  for (const c of Object.values(details)) {
    const it = c.items.find((i) => i.id === itemId);
    if (it) {
      const weapon = (lang === 'ru' && it.nameRu) || it.name || itemId;
      const finish = (lang === 'ru' && it.variantRu) || it.variant;
      return finish ? `${weapon} | ${finish}` : weapon;
    }
  }
  return itemId;
}
