import { api } from '../../lib/api-client';

/** `GET /config` (public). */
export interface AppConfig {
  botUsername: string;
  inviteLinkBase: string;
  channelUrl: string;
  communityUrl: string;
  termsUrl: string;
  privacyUrl: string;
  devGate: boolean;
  demo: boolean;
  version: string;
  /** Stars a player must have bought before withdrawals unlock. */
  withdrawMinStars?: number;
  /** Whether skins won with bonus tokens stay in the shop (keep or sell, not withdraw). */
  withdrawPaidOnly?: boolean;
}

/**
 * Whether the shop keeps bonus-won skins from leaving. An older server without the field: on
 * with a bot token, off in demo mode (the server's own default).
 */
export function paidOnly(config: AppConfig | null | undefined): boolean {
  if (!config) return false;
  return typeof config.withdrawPaidOnly === 'boolean' ? config.withdrawPaidOnly : !config.demo;
}

export function getConfig(): Promise<AppConfig> {
  return api.get<AppConfig>('/config', { auth: false });
}

export async function getMaintenance(): Promise<boolean> {
  const body = await api.get<{ maintenance?: unknown }>('/status', { auth: false });
  return body?.maintenance === true;
}

/**
 * `POST /dev-gate`: `{success, proof, expiresAt}`; `403 wrong_password` when the password is
 * wrong, `429 rate_limited` after too many tries.
 */
export function postDevGate(password: string): Promise<{ success?: boolean; proof?: string; expiresAt?: number } | undefined> {
  return api.post('/dev-gate', { password }, { auth: false, retryOn401: false });
}

/** `GET /user/check-agreements`: the terms, and the 18+ confirmation asked beside them. */
export async function getAgreement(): Promise<{ agreed: boolean; adult: boolean }> {
  const body = await api.get<{ success?: boolean; agreed?: boolean; adult?: boolean }>('/user/check-agreements');
  const ok = body?.success !== false;
  return { agreed: ok && body?.agreed === true, adult: ok && body?.adult === true };
}

/** Accepts the terms and confirms the player is 18 or older. */
export async function postAgreement(): Promise<boolean> {
  const body = await api.post<{ success?: boolean }>('/user/agreements', { adult: true });
  return body?.success !== false;
}
