import { beforeEach, describe, expect, it, vi } from 'vitest';

import { configureApiClient } from '../../lib/api-client';
import { setInitDataSource, useSession } from './store';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const profile = { telegramId: 42, firstName: 'Ann', lastName: '', balance: '5000.5', tgSubscribed: false, ref: 'abc' };

function serve(handler: (url: string, init: RequestInit) => Response) {
  const calls: string[] = [];
  configureApiClient({
    fetch: (async (url: string, init: RequestInit) => {
      calls.push(`${init.method ?? 'GET'} ${url} ${(init.headers as Record<string, string>).Authorization ?? '-'}`);
      return handler(url, init);
    }) as unknown as typeof fetch,
  });
  return calls;
}

beforeEach(() => {
  useSession.setState({ token: null, user: null, loading: false, error: null, expired: false });
  setInitDataSource(() => 'query_id=1&user=%7B%7D&hash=ab');
});

describe('session store', () => {
  it('signs in with the init data and keeps only the token in local storage', async () => {
    const calls = serve(() => json(200, { token: 'tok', user: profile }));

    await useSession.getState().signIn();

    const s = useSession.getState();
    expect(s.token).toBe('tok');
    expect(s.user?.balance).toBe(5000.5);
    expect(s.user?.caseOpened).toBe(false);
    expect(s.loading).toBe(false);
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.length).toBe(1);
    expect(calls).toEqual(['POST /api/v1/auth -']);
  });

  it("fails with 'Токен не получен' when the answer has no token", async () => {
    serve(() => json(200, { user: profile }));

    await expect(useSession.getState().signIn()).rejects.toMatchObject({ message: 'Токен не получен' });
    expect(useSession.getState().error).toBe('Токен не получен');
    expect(useSession.getState().loading).toBe(false);
  });

  it('marks the session expired on init_data_expired', async () => {
    serve(() => json(401, { code: 'init_data_expired', error: 'Reopen the app' }));

    await expect(useSession.getState().signIn()).rejects.toBeTruthy();
    expect(useSession.getState().expired).toBe(true);
  });

  it('shares one sign-in between concurrent callers', async () => {
    const calls = serve(() => json(200, { token: 'tok', user: profile }));

    await Promise.all([useSession.getState().signIn(), useSession.getState().signIn(), useSession.getState().signIn()]);

    expect(calls).toHaveLength(1);
  });

  it('re-signs in silently when a stored token is refused, then loads the profile', async () => {
    useSession.setState({ token: 'stale' });
    const calls = serve((url, init) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      if (url.endsWith('/auth')) return json(200, { token: 'fresh', user: profile });
      if (auth === 'Bearer stale') return json(401, { code: 'unauthorized' });
      return json(200, { status: 'success', data: { ...profile, balance: 10 } });
    });

    const result = await useSession.getState().loadProfile();

    expect(result.ok).toBe(true);
    expect(useSession.getState().token).toBe('fresh');
    expect(useSession.getState().user?.balance).toBe(10);
    expect(calls).toEqual(['GET /api/v1/me Bearer stale', 'POST /api/v1/auth -', 'GET /api/v1/me Bearer fresh']);
  });

  it('drops the token when the profile answers 404', async () => {
    useSession.setState({ token: 'tok' });
    localStorage.setItem('token', 'tok');
    serve(() => json(404, { code: 'not_found', error: 'gone' }));

    const result = await useSession.getState().loadProfile();

    expect(result).toMatchObject({ ok: false, status: 404 });
    expect(useSession.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("rejects a profile answer without status or telegramId ('Invalid server response format')", async () => {
    useSession.setState({ token: 'tok' });
    serve(() => json(200, { hello: 'world' }));

    const result = await useSession.getState().loadProfile();

    expect(result.ok).toBe(false);
    expect(useSession.getState().error).toBe('Invalid server response format');
  });

  it('refreshes the balance quietly: no loading flag, no stored error', async () => {
    useSession.setState({ token: 'tok', user: { ...profile, balance: 1, caseOpened: false, tgSubscribed: false, lastName: '' } });
    const seen: boolean[] = [];
    const unsub = useSession.subscribe((s) => seen.push(s.loading));
    serve(() => json(500, { code: 'internal', error: 'boom' }));

    await useSession.getState().refreshBalance();

    unsub();
    expect(seen.every((l) => !l)).toBe(true);
    expect(useSession.getState().error).toBeNull();
    expect(useSession.getState().user?.balance).toBe(1);
  });

  it('logs out as the spec says', () => {
    useSession.setState({ token: 'tok', error: 'x' });
    localStorage.setItem('token', 'tok');

    useSession.getState().logout();

    expect(useSession.getState()).toMatchObject({ token: null, user: { caseOpened: false }, error: null });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('patches the local balance', () => {
    useSession.setState({ user: { ...profile, balance: 100, caseOpened: false, tgSubscribed: false, lastName: '' } });
    useSession.getState().setBalance(75);
    expect(useSession.getState().user?.balance).toBe(75);
    vi.restoreAllMocks();
  });
});
