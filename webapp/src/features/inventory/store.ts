import { create } from 'zustand';

import { fetchItems, type InventoryItem } from './api';

/** Spec section 9: the list is refreshed at most every 15 s unless forced. */
export const INVENTORY_TTL_MS = 15_000;

interface InventoryState {
  items: InventoryItem[];
  loading: boolean;
  error: string | null;
  fetchedAt: number;
  load: (force?: boolean) => Promise<void>;
  add: (item: InventoryItem) => void;
  remove: (id: number) => void;
  patch: (id: number, patch: Partial<InventoryItem>) => void;
  find: (id: number) => InventoryItem | undefined;
}

let inFlight: Promise<void> | null = null;

export function isFresh(fetchedAt: number, now: number, ttl: number): boolean {
  return fetchedAt > 0 && now - fetchedAt < ttl;
}

export const useInventory = create<InventoryState>((set, get) => ({
  items: [],
  loading: false,
  error: null,
  fetchedAt: 0,
  load: (force = false) => {
    if (!force && isFresh(get().fetchedAt, Date.now(), INVENTORY_TTL_MS)) return Promise.resolve();
    if (inFlight) return inFlight;
    set({ loading: true, error: null });
    inFlight = fetchItems()
      .then((items) => set({ items, fetchedAt: Date.now(), loading: false }))
      .catch((e: unknown) => set({ loading: false, error: e instanceof Error ? e.message : String(e) }))
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  },
  add: (item) => set({ items: [item, ...get().items.filter((i) => i.id !== item.id)] }),
  remove: (id) => set({ items: get().items.filter((i) => i.id !== id) }),
  patch: (id, patch) => set({ items: get().items.map((i) => (i.id === id ? { ...i, ...patch } : i)) }),
  find: (id) => get().items.find((i) => i.id === id),
}));
