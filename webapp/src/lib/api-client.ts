/**
 * The one HTTP client of the mini app: base URL, Bearer header, the server's error body turned
 * into `ApiError(status, code, message)`, and one silent re-sign-in plus retry on a 401.
 *
 * The session store plugs itself in with `configureApiClient` (token getter, re-sign-in), so this
 * module stays free of React and of the stores and is easy to test with a fake `fetch`.
 */

import { readString, storageKeys } from './storage';

/** Same origin as the mini app; `docs/api.md` is the contract. */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '/api/v1';

/** Codes the client itself produces for failures that never reached a server answer. */
export const clientErrorCodes = {
  /** The server answered with an error but no usable body. */
  server: 'server_error',
  /** No answer at all (offline, DNS, CORS, connection reset). */
  network: 'network_error',
  /** The request could not even be built or sent. */
  request: 'request_error',
  /** The answer was not the JSON we expected. */
  badResponse: 'bad_response',
} as const;

/** Spec section 8, transport messages; the UI shows them translated by `code`. */
export const transportMessages = {
  server: 'Произошла ошибка на сервере',
  network: 'Не удалось связаться с сервером. Проверьте подключение к интернету',
  request: 'Произошла ошибка при отправке запроса',
} as const;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export interface ApiClientHooks {
  /** Current session token, or null before sign-in. */
  getToken: () => string | null;
  /** Signs in again with the init data and stores the new token; rejects when that fails. */
  reSignIn: (() => Promise<void>) | null;
  /** Sees every error before it is thrown (maintenance and expired-init-data switches). */
  onError: ((error: ApiError) => void) | null;
  /** Injected in tests. */
  fetch: typeof fetch;
}

const hooks: ApiClientHooks = {
  getToken: () => null,
  reSignIn: null,
  onError: null,
  fetch: (...args) => globalThis.fetch(...args),
};

export function configureApiClient(next: Partial<ApiClientHooks>): void {
  Object.assign(hooks, next);
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Send the Bearer token (default true). */
  auth?: boolean;
  /** Re-sign-in and retry once on a 401 (default true; false for sign-in itself). */
  retryOn401?: boolean;
  /** Extra request headers (the development gate's proof). */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: Query): string {
  const base = API_BASE.replace(/\/$/, '');
  let url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) params.set(k, String(v));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/**
 * The Bearer token and the player's chosen language, as every call sends them (a streamed
 * request that does not go through `request` sends them too).
 */
export function authHeaders(auth = true): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = auth ? hooks.getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  // Error texts (and the feed's names) come back in the player's chosen language.
  const language = readString(storageKeys.language);
  if (language === 'ru' || language === 'en') headers['Accept-Language'] = language;
  return headers;
}

/** Signs in again (after a 401 outside `request`); rejects when that fails. */
export async function reauthorize(): Promise<void> {
  await hooks.reSignIn?.();
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers, ...authHeaders(opts.auth !== false) };
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    try {
      body = JSON.stringify(opts.body);
    } catch {
      throw new ApiError(0, clientErrorCodes.request, transportMessages.request);
    }
  }
  try {
    return await hooks.fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal: opts.signal,
      credentials: 'include',
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    if (e instanceof TypeError) {
      throw new ApiError(0, clientErrorCodes.network, transportMessages.network);
    }
    throw new ApiError(0, clientErrorCodes.request, transportMessages.request);
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Turns a non-2xx answer into an `ApiError`, reading our `{error, message, code}` body. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const body = await readBody(res);
  let code: string = clientErrorCodes.server;
  let message: string = transportMessages.server;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.code === 'string' && b.code) code = b.code;
    const text = typeof b.message === 'string' && b.message ? b.message : b.error;
    if (typeof text === 'string' && text) message = text;
  }
  return new ApiError(res.status, code, message, body);
}

/**
 * Performs a request and returns the parsed JSON body (undefined for an empty one).
 * Spec section 4: a 401 signs in again once and retries; if that fails, the original error
 * is passed on. `init_data_expired` is never retried (the player has to reopen the app).
 */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(path, opts);
  if (res.status === 401 && opts.retryOn401 !== false && opts.auth !== false && hooks.reSignIn) {
    const original = await errorFromResponse(res);
    if (original.code === 'init_data_expired') throw report(original);
    try {
      await hooks.reSignIn();
    } catch {
      throw report(original);
    }
    res = await send(path, opts);
  }
  if (!res.ok) throw report(await errorFromResponse(res));
  return (await readBody(res)) as T;
}

function report(error: ApiError): ApiError {
  try {
    hooks.onError?.(error);
  } catch {
    // A listener must never hide the real error.
  }
  return error;
}

export const api = {
  get: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'DELETE' }),
};

/** Unwraps the spec's `{data: ...}` envelopes (also `{data: {data: ...}}`), leaving bare values. */
export function unwrapData<T>(body: unknown): T {
  let cur = body;
  for (let i = 0; i < 2; i += 1) {
    if (cur && typeof cur === 'object' && !Array.isArray(cur) && 'data' in cur) {
      cur = (cur as { data: unknown }).data;
    } else break;
  }
  return cur as T;
}
