import { create } from 'zustand';

import { fetchLimits, fetchStats, postSelfExclusion, putDailyLimit, type ExclusionPeriod, type Limits, type PlayStats } from './api';

interface ResponsibleState {
  limits: Limits | null;
  stats: PlayStats | null;
  /** Reads the limits and the self-exclusion (a failure keeps what was known). */
  loadLimits: () => Promise<Limits | null>;
  loadStats: () => Promise<void>;
  setDailyLimit: (limit: number | null) => Promise<Limits>;
  selfExclude: (period: ExclusionPeriod) => Promise<Limits>;
}

export const useResponsible = create<ResponsibleState>((set, get) => ({
  limits: null,
  stats: null,

  loadLimits: async () => {
    try {
      const limits = await fetchLimits();
      set({ limits });
      return limits;
    } catch (e) {
      console.warn('limits not loaded', e);
      return get().limits;
    }
  },

  loadStats: async () => {
    try {
      set({ stats: await fetchStats() });
    } catch (e) {
      console.warn('statistics not loaded', e);
    }
  },

  setDailyLimit: async (limit) => {
    const limits = await putDailyLimit(limit);
    set({ limits });
    return limits;
  },

  selfExclude: async (period) => {
    const limits = await postSelfExclusion(period);
    set({ limits });
    return limits;
  },
}));
