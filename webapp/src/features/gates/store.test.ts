import { beforeEach, describe, expect, it } from 'vitest';

import { configureApiClient } from '../../lib/api-client';
import { useGates } from './store';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function serve(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  configureApiClient({ fetch: ((url: string, init: RequestInit) => Promise.resolve(handler(url, init))) as unknown as typeof fetch });
}

beforeEach(() => {
  useGates.setState({ agreement: 'unknown', termsAccepted: false, isAuthenticated: false, pendingPath: null, maintenance: { isMaintenance: false, lastChecked: null } });
});

describe('gates store', () => {
  it('persists the maintenance state with the time of the check', async () => {
    serve(() => json(200, { maintenance: true }));

    await useGates.getState().checkMaintenance();

    expect(useGates.getState().maintenance.isMaintenance).toBe(true);
    const stored = JSON.parse(localStorage.getItem('maintenance') ?? '{}');
    expect(stored.isMaintenance).toBe(true);
    expect(typeof stored.lastChecked).toBe('number');
  });

  it('only logs a failed maintenance check', async () => {
    useGates.getState().setMaintenance(true);
    serve(() => {
      throw new TypeError('offline');
    });

    await useGates.getState().checkMaintenance();

    expect(useGates.getState().maintenance.isMaintenance).toBe(true);
  });

  it('counts a failed agreement check as not agreed', async () => {
    serve(() => json(500, { code: 'internal' }));
    expect(await useGates.getState().checkAgreement()).toBe('not_agreed');
    expect(useGates.getState().agreementCheckFailed).toBe(true);
  });

  it('asks a player who accepted the terms before the 18+ question to confirm their age once', async () => {
    serve(() => json(200, { success: true, agreed: true, adult: false }));
    expect(await useGates.getState().checkAgreement()).toBe('not_agreed');
    expect(useGates.getState().termsAgreedBefore).toBe(true);
    serve(() => json(200, { success: true, agreed: true, adult: true }));
    expect(await useGates.getState().checkAgreement()).toBe('agreed');
    expect(useGates.getState().termsAgreedBefore).toBe(false);
  });

  it('sends the 18+ confirmation with the agreement', async () => {
    let sent: unknown = null;
    serve((_, init) => {
      sent = JSON.parse(String(init.body));
      return json(200, { success: true, agreed: true, adult: true });
    });
    expect(await useGates.getState().acceptAgreement()).toBe(true);
    expect(sent).toEqual({ adult: true });
  });

  it('remembers an agreement as termsAccepted', async () => {
    serve(() => json(200, { success: true, agreed: true }));
    expect(await useGates.getState().acceptAgreement()).toBe(true);
    expect(useGates.getState().agreement).toBe('agreed');
    expect(localStorage.getItem('termsAccepted')).toBe('true');
  });

  it('passes the dev gate only on the server saying yes', async () => {
    serve((_, init) =>
      JSON.parse(String(init.body)).password === 'open' ? json(200, { success: true }) : json(403, { code: 'wrong_password', error: 'Неверный пароль' }),
    );

    expect(await useGates.getState().submitDevGate('nope')).toBe('wrong');
    expect(useGates.getState().isAuthenticated).toBe(false);
    expect(await useGates.getState().submitDevGate('open')).toBe('ok');
    expect(useGates.getState().isAuthenticated).toBe(true);
    expect(localStorage.getItem('isAuthenticated')).toBe('true');
  });

  it('hands out a remembered deep link once', () => {
    useGates.getState().setPendingPath('/skin/7');
    expect(sessionStorage.getItem('pendingPath')).toBe('/skin/7');
    expect(useGates.getState().takePendingPath()).toBe('/skin/7');
    expect(useGates.getState().takePendingPath()).toBe('/');
  });
});
