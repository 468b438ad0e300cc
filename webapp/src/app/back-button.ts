import { useEffect } from 'react';
import { create } from 'zustand';

interface BackOverrideState {
  /** Screens that must hide the back button (the case screen while opening). */
  hiders: number;
  hide: () => () => void;
}

export const useBackOverride = create<BackOverrideState>((set, get) => ({
  hiders: 0,
  hide: () => {
    set({ hiders: get().hiders + 1 });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      set({ hiders: Math.max(0, get().hiders - 1) });
    };
  },
}));

/** Hides Telegram's back button while `hidden` is true (spec: while a case is opening). */
export function useHideBackButton(hidden: boolean): void {
  useEffect(() => {
    if (!hidden) return;
    return useBackOverride.getState().hide();
  }, [hidden]);
}
