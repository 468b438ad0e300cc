import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError, configureApiClient, request, transportMessages, unwrapData } from './api-client';

type Call = { url: string; auth: string | undefined; body: unknown };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake fetch answering from a queue and recording every call. */
function fakeFetch(answers: Array<Response | Error>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url: String(url), auth: headers.Authorization, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const next = answers.shift();
    if (!next) throw new Error('no answer queued');
    if (next instanceof Error) throw next;
    return next;
  });
  return { fn: fn as unknown as typeof fetch, calls };
}

afterEach(() => {
  configureApiClient({ getToken: () => null, reSignIn: null, onError: null });
});

describe('api client', () => {
  it('sends the bearer token and returns the parsed body', async () => {
    const { fn, calls } = fakeFetch([json(200, { data: [1, 2] })]);
    configureApiClient({ fetch: fn, getToken: () => 'tok-1' });

    const body = await request<{ data: number[] }>('/cases');

    expect(body.data).toEqual([1, 2]);
    expect(calls[0].url).toBe('/api/v1/cases');
    expect(calls[0].auth).toBe('Bearer tok-1');
  });

  it('signs in again once on a 401 and retries with the new token', async () => {
    let token = 'old';
    const reSignIn = vi.fn(async () => {
      token = 'new';
    });
    const { fn, calls } = fakeFetch([json(401, { code: 'unauthorized', error: 'no' }), json(200, { ok: true })]);
    configureApiClient({ fetch: fn, getToken: () => token, reSignIn });

    const body = await request<{ ok: boolean }>('/me');

    expect(body.ok).toBe(true);
    expect(reSignIn).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.auth)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('passes the original error on when the re-sign-in fails', async () => {
    const reSignIn = vi.fn(async () => {
      throw new Error('sign-in failed');
    });
    const { fn, calls } = fakeFetch([json(401, { code: 'unauthorized', error: 'Session expired', message: 'Session expired' })]);
    configureApiClient({ fetch: fn, getToken: () => 'old', reSignIn });

    const err = await request('/me').catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).code).toBe('unauthorized');
    expect((err as ApiError).message).toBe('Session expired');
    expect(calls).toHaveLength(1);
  });

  it('retries only once: a second 401 after re-sign-in is thrown', async () => {
    const reSignIn = vi.fn(async () => undefined);
    const { fn } = fakeFetch([json(401, { code: 'unauthorized' }), json(401, { code: 'unauthorized' })]);
    configureApiClient({ fetch: fn, getToken: () => 't', reSignIn });

    await expect(request('/me')).rejects.toMatchObject({ status: 401 });
    expect(reSignIn).toHaveBeenCalledTimes(1);
  });

  it('never retries init_data_expired and reports it', async () => {
    const reSignIn = vi.fn(async () => undefined);
    const onError = vi.fn();
    const { fn } = fakeFetch([json(401, { code: 'init_data_expired', error: 'Reopen' })]);
    configureApiClient({ fetch: fn, getToken: () => 't', reSignIn, onError });

    await expect(request('/me')).rejects.toMatchObject({ code: 'init_data_expired' });
    expect(reSignIn).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'init_data_expired' }));
  });

  it('does not retry requests sent without auth (sign-in itself)', async () => {
    const reSignIn = vi.fn(async () => undefined);
    const { fn } = fakeFetch([json(401, { code: 'invalid_init_data', error: 'bad' })]);
    configureApiClient({ fetch: fn, reSignIn });

    await expect(request('/auth', { method: 'POST', body: {}, auth: false })).rejects.toMatchObject({ code: 'invalid_init_data' });
    expect(reSignIn).not.toHaveBeenCalled();
  });

  it('uses the server message, else the spec fallback for a server error', async () => {
    const { fn } = fakeFetch([json(409, { code: 'insufficient_tokens', error: 'Мало', message: 'Недостаточно токенов' }), new Response('oops', { status: 500 })]);
    configureApiClient({ fetch: fn });

    await expect(request('/x')).rejects.toMatchObject({ status: 409, code: 'insufficient_tokens', message: 'Недостаточно токенов' });
    await expect(request('/x')).rejects.toMatchObject({ status: 500, code: 'server_error', message: transportMessages.server });
  });

  it('reports no answer at all as a network error with the spec text', async () => {
    const { fn } = fakeFetch([new TypeError('Failed to fetch')]);
    configureApiClient({ fetch: fn });

    await expect(request('/x')).rejects.toMatchObject({ status: 0, code: 'network_error', message: transportMessages.network });
  });

  it('builds query strings and skips empty values', async () => {
    const { fn, calls } = fakeFetch([json(200, {})]);
    configureApiClient({ fetch: fn });

    await request('/user/referrals', { query: { page: 2, q: undefined } });

    expect(calls[0].url).toBe('/api/v1/user/referrals?page=2');
  });

  it('unwraps data and data.data envelopes', () => {
    expect(unwrapData({ data: [1] })).toEqual([1]);
    expect(unwrapData({ data: { data: { id: 1 } } })).toEqual({ id: 1 });
    expect(unwrapData([1, 2])).toEqual([1, 2]);
  });
});
