import { api } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/** `GET /config` (public). */
export type AppConfig = Schemas['ConfigBody'];

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
  const body = await api.get<Schemas['StatusBody'] | undefined>('/status', { auth: false });
  return body?.maintenance === true;
}

/**
 * `POST /dev-gate`: `{success, proof, expiresAt}`; `403 wrong_password` when the password is
 * wrong, `429 rate_limited` after too many tries.
 */
export function postDevGate(password: string): Promise<Schemas['DevGatePassed'] | undefined> {
  return api.post('/dev-gate', { password }, { auth: false, retryOn401: false });
}

/** `GET /user/check-agreements`: the terms, and the 18+ confirmation asked beside them. */
export async function getAgreement(): Promise<{ agreed: boolean; adult: boolean }> {
  const body = await api.get<Schemas['Agreed'] | undefined>('/user/check-agreements');
  const ok = body?.success !== false;
  return { agreed: ok && body?.agreed === true, adult: ok && body?.adult === true };
}

/** Accepts the terms and confirms the player is 18 or older. */
export async function postAgreement(): Promise<boolean> {
  const body = await api.post<Schemas['Agreed'] | undefined>('/user/agreements', { adult: true });
  return body?.success !== false;
}
