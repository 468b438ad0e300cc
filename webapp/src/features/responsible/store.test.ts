import { beforeEach, describe, expect, it } from 'vitest';

import { configureApiClient } from '../../lib/api-client';
import { useResponsible } from './store';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const LIMITS = {
  dailyLimit: 100,
  pendingChange: { dailyLimit: 500, effectiveAt: '2026-01-02T00:00:10Z' },
  spentToday: 20,
  dayResetsAt: '2026-01-02T00:00:00Z',
  selfExclusion: { active: false, until: null, permanent: false },
};

beforeEach(() => useResponsible.setState({ limits: null, stats: null }));

describe('responsible-play store', () => {
  it('sends the new daily limit (null removes it) and keeps the server’s answer', async () => {
    const sent: unknown[] = [];
    configureApiClient({
      fetch: ((url: string, init: RequestInit) => {
        expect(url).toMatch(/\/me\/limits$/);
        expect(init.method).toBe('PUT');
        sent.push(JSON.parse(String(init.body)));
        return Promise.resolve(json(200, { success: true, data: LIMITS }));
      }) as unknown as typeof fetch,
    });
    await useResponsible.getState().setDailyLimit(500);
    await useResponsible.getState().setDailyLimit(null);
    expect(sent).toEqual([{ dailyLimit: 500 }, { dailyLimit: null }]);
    expect(useResponsible.getState().limits).toEqual(LIMITS);
  });

  it('keeps what it knew when the limits cannot be read', async () => {
    useResponsible.setState({ limits: LIMITS });
    configureApiClient({ fetch: (() => Promise.resolve(json(500, { code: 'internal' }))) as unknown as typeof fetch });
    expect(await useResponsible.getState().loadLimits()).toEqual(LIMITS);
    expect(useResponsible.getState().limits).toEqual(LIMITS);
  });

  it('starts a break with the chosen period and shows it at once', async () => {
    let body: unknown = null;
    const excluded = { ...LIMITS, selfExclusion: { active: true, until: null, permanent: true } };
    configureApiClient({
      fetch: ((url: string, init: RequestInit) => {
        expect(url).toMatch(/\/me\/self-exclusion$/);
        body = JSON.parse(String(init.body));
        return Promise.resolve(json(200, { success: true, data: excluded }));
      }) as unknown as typeof fetch,
    });
    await useResponsible.getState().selfExclude('permanent');
    expect(body).toEqual({ period: 'permanent' });
    expect(useResponsible.getState().limits?.selfExclusion.permanent).toBe(true);
  });

  it('refuses a break the server refuses (it cannot be shortened)', async () => {
    configureApiClient({
      fetch: (() => Promise.resolve(json(409, { success: false, code: 'self_exclusion_active', error: 'A longer break is already running', until: null, permanent: true }))) as unknown as typeof fetch,
    });
    await expect(useResponsible.getState().selfExclude('24h')).rejects.toMatchObject({ code: 'self_exclusion_active', status: 409 });
    expect(useResponsible.getState().limits).toBeNull();
  });
});
