import { create } from 'zustand';

import { ApiError, configureApiClient, isApiError } from '../../lib/api-client';
import { readString, storageKeys, writeString } from '../../lib/storage';
import { getMe, postAuth, type Profile } from './api';

/** Where the raw init data comes from (kept from the first load by the Telegram bootstrap). */
let initDataSource: () => string | null = () => null;

export function setInitDataSource(source: () => string | null): void {
  initDataSource = source;
}

export type ProfileResult = { ok: true; user: Profile } | { ok: false; status: number; error: ApiError };

interface SessionState {
  token: string | null;
  /** `null` before the first profile; after logout the spec's `{caseOpened: false}`. */
  user: Profile | null;
  loading: boolean;
  error: string | null;
  /** The init data is too old to sign in again: only reopening the mini app helps. */
  expired: boolean;
  signIn: () => Promise<boolean>;
  loadProfile: () => Promise<ProfileResult>;
  /** Quiet profile refresh: no loading flag, no stored error (spec section 4). */
  refreshBalance: () => Promise<void>;
  /** Local balance change (the case screen deducts the price, restores it on failure). */
  setBalance: (balance: number) => void;
  patchUser: (patch: Partial<Profile>) => void;
  logout: () => void;
  clearToken: () => void;
}

let signInInFlight: Promise<boolean> | null = null;

function persistToken(token: string | null): void {
  writeString(storageKeys.token, token);
}

export const useSession = create<SessionState>((set, get) => ({
  token: readString(storageKeys.token),
  user: null,
  loading: false,
  error: null,
  expired: false,

  signIn: () => {
    // Concurrent 401s share one sign-in.
    if (signInInFlight) return signInInFlight;
    signInInFlight = (async () => {
      const initData = initDataSource();
      set({ loading: true, error: null });
      try {
        if (!initData) throw new ApiError(0, 'no_init_data', 'Ошибка авторизации');
        const { token, user } = await postAuth(initData);
        persistToken(token);
        set({ token, user, loading: false });
        return true;
      } catch (e) {
        const error = isApiError(e) ? e : new ApiError(0, 'auth_failed', 'Ошибка авторизации');
        set({
          loading: false,
          error: error.message || 'Ошибка авторизации',
          expired: get().expired || error.code === 'init_data_expired',
        });
        throw error;
      } finally {
        signInInFlight = null;
      }
    })();
    return signInInFlight;
  },

  loadProfile: async () => {
    set({ loading: true, error: null });
    try {
      const user = await getMe();
      set({ user, loading: false });
      return { ok: true, user };
    } catch (e) {
      const error = isApiError(e) ? e : new ApiError(0, 'profile_error', 'Error getting profile');
      if (error.status === 401 || error.status === 404) {
        // Spec: the stored Authorization is dropped; the next start signs in afresh.
        persistToken(null);
        set({ token: null });
      }
      set({ loading: false, error: error.message || 'Ошибка при загрузке' });
      return { ok: false, status: error.status, error };
    }
  },

  refreshBalance: async () => {
    try {
      const user = await getMe();
      set({ user });
    } catch (e) {
      if (isApiError(e) && (e.status === 401 || e.status === 404)) {
        persistToken(null);
        set({ token: null });
      }
    }
  },

  setBalance: (balance) => {
    const user = get().user;
    if (user) set({ user: { ...user, balance } });
  },

  patchUser: (patch) => {
    const user = get().user;
    if (user) set({ user: { ...user, ...patch } });
  },

  logout: () => {
    persistToken(null);
    set({ token: null, user: { caseOpened: false } as Profile, error: null });
  },

  clearToken: () => {
    persistToken(null);
    set({ token: null });
  },
}));

// The API client reads the token from here and signs in again once on a 401.
configureApiClient({
  getToken: () => useSession.getState().token,
  reSignIn: async () => {
    await useSession.getState().signIn();
  },
});
