import { create } from 'zustand';

import { isApiError } from '../../lib/api-client';
import { forgetProof, proofRequired, readProof, saveProof } from '../../lib/dev-gate-proof';
import { readBool, readJson, readString, storageKeys, writeBool, writeJson, writeString } from '../../lib/storage';
import { getAgreement, getConfig, getMaintenance, postAgreement, postDevGate, type AppConfig } from './api';

/** Spec section 9: the maintenance status is polled every 60 s. */
export const MAINTENANCE_POLL_MS = 60_000;

const PENDING_PATH_KEY = 'pendingPath';

export type Agreement = 'unknown' | 'agreed' | 'not_agreed';

interface MaintenanceState {
  isMaintenance: boolean;
  lastChecked: number | null;
}

interface GatesState {
  config: AppConfig | null;
  maintenance: MaintenanceState;
  /** Passed the development gate (spec: `isAuthenticated`). */
  isAuthenticated: boolean;
  /** Local memory of the agreement (spec: `termsAccepted`); the server's answer decides. */
  termsAccepted: boolean;
  agreement: Agreement;
  /**
   * `agreement` is assumed, not yet the server's answer: a first open (nothing stored) shows
   * onboarding while sign-in and the agreement check run (issue 32, point 9). Until the check
   * answers, onboarding's start button stays off; an agreed answer leaves for home. Set by
   * `boot` (app/boot.ts), cleared by `checkAgreement`.
   */
  agreementProvisional: boolean;
  /** The last agreement check failed (network/server), so `not_agreed` is only assumed. */
  agreementCheckFailed: boolean;
  /** The terms were accepted before (only the 18+ confirmation is still asked). */
  termsAgreedBefore: boolean;
  /** A deep-link target waiting for the terms to be agreed. */
  pendingPath: string | null;
  loadConfig: () => Promise<AppConfig>;
  checkMaintenance: () => Promise<void>;
  setMaintenance: (on: boolean) => void;
  submitDevGate: (password: string) => Promise<'ok' | 'wrong' | 'limited' | 'error'>;
  /** The server refused the gate's proof (`403 dev_gate_required`): show the gate again. */
  requireDevGate: () => void;
  checkAgreement: () => Promise<Agreement>;
  acceptAgreement: () => Promise<boolean>;
  setPendingPath: (path: string | null) => void;
  /** Returns the remembered deep-link path (or '/') and forgets it. */
  takePendingPath: () => string;
}

const storedMaintenance = readJson<MaintenanceState>(storageKeys.maintenance);

export const useGates = create<GatesState>((set, get) => ({
  config: null,
  maintenance: {
    isMaintenance: storedMaintenance?.isMaintenance === true,
    lastChecked: storedMaintenance?.lastChecked ?? null,
  },
  // Passed means holding the server's unexpired proof for this tab.
  isAuthenticated: readBool(storageKeys.isAuthenticated, false) && (!proofRequired() || readProof() !== null),
  termsAccepted: readBool(storageKeys.termsAccepted, false),
  agreement: 'unknown',
  agreementProvisional: false,
  agreementCheckFailed: false,
  termsAgreedBefore: false,
  pendingPath: readString(PENDING_PATH_KEY, 'session'),

  loadConfig: async () => {
    const config = await getConfig();
    set({ config });
    return config;
  },

  checkMaintenance: async () => {
    try {
      get().setMaintenance(await getMaintenance());
    } catch (e) {
      // Spec section 4: a failed check is only logged.
      console.warn('maintenance check failed', e);
    }
  },

  setMaintenance: (on) => {
    const maintenance = { isMaintenance: on, lastChecked: Date.now() };
    writeJson(storageKeys.maintenance, maintenance);
    set({ maintenance });
  },

  submitDevGate: async (password) => {
    try {
      const body = await postDevGate(password);
      // The server's proof goes with every sign-in of this tab until it expires.
      if (typeof body?.proof === 'string' && body.proof) saveProof(body.proof, Number(body.expiresAt ?? 0) || Date.now() / 1000 + 3600);
      writeBool(storageKeys.isAuthenticated, true);
      set({ isAuthenticated: true });
      return 'ok';
    } catch (e) {
      if (isApiError(e) && e.code === 'wrong_password') return 'wrong';
      if (isApiError(e) && (e.code === 'rate_limited' || e.status === 429)) return 'limited';
      return 'error';
    }
  },

  requireDevGate: () => {
    forgetProof();
    writeBool(storageKeys.isAuthenticated, false);
    set({ isAuthenticated: false });
  },

  checkAgreement: async () => {
    let agreed = false;
    let termsAgreedBefore = false;
    let failed = false;
    try {
      const answer = await getAgreement();
      // Agreed means the terms and the 18+ confirmation; a player who agreed to the terms before
      // the question existed confirms their age once at this start.
      agreed = answer.agreed && answer.adult;
      termsAgreedBefore = answer.agreed && !answer.adult;
    } catch (e) {
      // Spec section 4: a failed check at start counts as not agreed.
      console.warn('agreement check failed', e);
      failed = true;
    }
    const agreement: Agreement = agreed ? 'agreed' : 'not_agreed';
    writeBool(storageKeys.termsAccepted, agreed);
    set({ agreement, agreementProvisional: false, termsAccepted: agreed, agreementCheckFailed: failed, termsAgreedBefore });
    return agreement;
  },

  acceptAgreement: async () => {
    try {
      if (!(await postAgreement())) return false;
    } catch {
      return false;
    }
    writeBool(storageKeys.termsAccepted, true);
    set({ agreement: 'agreed', termsAccepted: true });
    return true;
  },

  setPendingPath: (path) => {
    writeString(PENDING_PATH_KEY, path, 'session');
    set({ pendingPath: path });
  },

  takePendingPath: () => {
    const path = get().pendingPath ?? '/';
    get().setPendingPath(null);
    return path;
  },
}));
