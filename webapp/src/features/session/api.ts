import { api, ApiError, clientErrorCodes } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import { devGateHeaders } from '../../lib/dev-gate-proof';

type SignedIn = components['schemas']['SignedIn'];
type ProfileBody = components['schemas']['ProfileBody'];

/**
 * The signed-in player's profile (`ProfileBody`: `GET /me`'s data, `SignedIn.user`) as
 * `normaliseProfile` leaves it: the fields it fills are always there, the others as the answer
 * carried them (the spec accepts a profile answer that has only `telegramId`).
 */
export type Profile = Pick<ProfileBody, 'telegramId' | 'firstName' | 'lastName' | 'balance' | 'tgSubscribed' | 'caseOpened'> &
  Partial<ProfileBody>;

/** `SignedIn` with its profile normalised (`normaliseProfile`). */
export type AuthAnswer = Omit<SignedIn, 'user'> & { user: Profile };

/** Turns whatever the server sent into a Profile (balance as a number, `caseOpened` present; extra fields kept). */
export function normaliseProfile(raw: Record<string, unknown>): Profile {
  const balance = Number(raw.balance ?? 0);
  return {
    ...(raw as Partial<Profile>),
    telegramId: Number(raw.telegramId),
    firstName: typeof raw.firstName === 'string' ? raw.firstName : '',
    lastName: typeof raw.lastName === 'string' ? raw.lastName : '',
    balance: Number.isFinite(balance) ? balance : 0,
    tgSubscribed: raw.tgSubscribed === true,
    caseOpened: raw.caseOpened === true,
  };
}

/** Spec section 5: sign-in fails with 'Токен не получен' when the answer has no token. */
export async function postAuth(initData: string): Promise<AuthAnswer> {
  const body = await api.post<Partial<SignedIn> | undefined>(
    '/auth',
    { initData },
    // The development gate's proof, when the server runs behind one.
    { auth: false, retryOn401: false, headers: devGateHeaders() },
  );
  const token = body?.token;
  if (typeof token !== 'string' || !token) {
    throw new ApiError(200, 'no_token', 'Токен не получен', body);
  }
  const user = body?.user && typeof body.user === 'object' ? normaliseProfile(body.user as Record<string, unknown>) : null;
  return { token, user: user ?? normaliseProfile({}) };
}

/**
 * Spec section 5: a profile answer is valid with status 'success' and data, or when it carries
 * `telegramId` itself; status 'error' is a failure with the server's text or 'Ошибка при загрузке'.
 */
export function parseProfileAnswer(body: unknown): Profile {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (b.status === 'error') {
      const text = typeof b.error === 'string' && b.error ? b.error : 'Ошибка при загрузке';
      throw new ApiError(200, 'profile_error', text, body);
    }
    if (b.status === 'success' && b.data && typeof b.data === 'object') {
      return normaliseProfile(b.data as Record<string, unknown>);
    }
    if (b.telegramId !== undefined) return normaliseProfile(b);
  }
  throw new ApiError(200, clientErrorCodes.badResponse, 'Invalid server response format', body);
}

export async function getMe(): Promise<Profile> {
  return parseProfileAnswer(await api.get<unknown>('/me'));
}
