import { create } from 'zustand';

import { useSession } from '../session';
import { claimDaily, claimStreakBonus, fetchStreak, type Streak } from './api';

export type ClaimResult = { success: true; tokensAwarded: number } | { success: false; error: string };

interface RewardsState {
  streak: Streak | null;
  loading: boolean;
  claiming: boolean;
  error: string | null;
  loadStreak: () => Promise<void>;
  claim: () => Promise<ClaimResult>;
  claimBonus: () => Promise<ClaimResult>;
}

/**
 * Spec section 4 "Streak and daily reward": each claim sets loading, calls the server and on
 * success refreshes the user and the streak; it answers success with tokensAwarded or failure
 * with the server's error text.
 */
export const useRewards = create<RewardsState>((set, get) => {
  async function run(call: () => Promise<{ tokensAwarded: number; balance?: number }>): Promise<ClaimResult> {
    if (get().claiming) return { success: false, error: '' };
    set({ claiming: true });
    try {
      const data = await call();
      if (typeof data.balance === 'number') useSession.getState().setBalance(data.balance);
      await Promise.all([useSession.getState().refreshBalance(), get().loadStreak()]);
      return { success: true, tokensAwarded: Number(data.tokensAwarded ?? 0) };
    } catch (e) {
      return { success: false, error: e instanceof Error ? e.message : String(e) };
    } finally {
      set({ claiming: false });
    }
  }
  return {
    streak: null,
    loading: false,
    claiming: false,
    error: null,
    loadStreak: async () => {
      set({ loading: get().streak === null, error: null });
      try {
        set({ streak: await fetchStreak(), loading: false });
      } catch (e) {
        set({ loading: false, error: e instanceof Error ? e.message : String(e) });
      }
    },
    claim: () => run(claimDaily),
    claimBonus: () => run(claimStreakBonus),
  };
});
