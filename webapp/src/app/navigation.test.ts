import { describe, expect, it } from 'vitest';

import { matchPath } from '../lib/router';
import { activeTab, backTarget, decideGate, hasBottomPadding, isTabBarHidden, resolveRoute, type PageKey } from './navigation';

describe('tab bar', () => {
  it('marks the tab whose path equals or prefixes the current path', () => {
    expect(activeTab('/')).toBe('home');
    expect(activeTab('/cases')).toBe('cases');
    expect(activeTab('/skins')).toBe('skins');
    expect(activeTab('/referrals')).toBe('referrals');
    expect(activeTab('/profile')).toBe('profile');
    expect(activeTab('/profile/anything')).toBe('profile');
  });

  it('does not treat / as a prefix of every path', () => {
    expect(activeTab('/trade-url')).toBeNull();
    expect(activeTab('/skin/5')).toBeNull();
  });

  it('is hidden on the detail paths the spec lists', () => {
    for (const p of ['/case/starter', '/case-result/5', '/case-results', '/skin/5', '/packages', '/farm', '/trade-url', '/support', '/support/ticket/3', '/fair']) {
      expect(isTabBarHidden(p), p).toBe(true);
    }
    for (const p of ['/', '/cases', '/skins', '/referrals', '/profile', '/withdraw']) {
      expect(isTabBarHidden(p), p).toBe(false);
    }
  });

  it('leaves no bottom padding on support screens only', () => {
    expect(hasBottomPadding('/support')).toBe(false);
    expect(hasBottomPadding('/support/ticket/1')).toBe(false);
    expect(hasBottomPadding('/profile')).toBe(true);
  });
});

describe('native back button', () => {
  it('is hidden on tab roots, login and onboarding', () => {
    for (const p of ['/', '/cases', '/skins', '/profile', '/login', '/onboarding']) expect(backTarget(p), p).toBeNull();
  });

  it('leads out of Friends, whose invite button takes the tab bar’s place (issue 32)', () => {
    expect(backTarget('/referrals')).toBe(-1);
  });

  it('goes one step back on detail screens', () => {
    for (const p of ['/skin/5', '/packages', '/trade-url', '/withdraw', '/support', '/farm', '/case-result/9', '/fair']) {
      expect(backTarget(p), p).toBe(-1);
    }
  });

  it('goes to the store from a case and to support from a ticket', () => {
    expect(backTarget('/case/starter')).toBe('/cases');
    expect(backTarget('/support/ticket/4')).toBe('/support');
  });
});

describe('gates', () => {
  const base = { pathname: '/', devGate: false, isAuthenticated: false, agreement: 'agreed' as const, pendingPath: null };

  it('sends everyone to /login while the dev gate is on and not passed', () => {
    expect(decideGate({ ...base, devGate: true, pathname: '/cases' })).toEqual({ kind: 'redirect', to: '/login' });
    expect(decideGate({ ...base, devGate: true, pathname: '/login' })).toEqual({ kind: 'render' });
  });

  it('sends an authenticated player away from /login', () => {
    expect(decideGate({ ...base, devGate: true, isAuthenticated: true, pathname: '/login' })).toEqual({ kind: 'redirect', to: '/' });
    expect(decideGate({ ...base, pathname: '/login' })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('waits while the agreement is unknown', () => {
    expect(decideGate({ ...base, agreement: 'unknown' })).toEqual({ kind: 'wait' });
  });

  it('forces /onboarding until the terms are agreed', () => {
    expect(decideGate({ ...base, agreement: 'not_agreed', pathname: '/skins' })).toEqual({ kind: 'redirect', to: '/onboarding' });
    expect(decideGate({ ...base, agreement: 'not_agreed', pathname: '/onboarding' })).toEqual({ kind: 'render' });
  });

  it('redirects /onboarding to / once agreed', () => {
    expect(decideGate({ ...base, pathname: '/onboarding' })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('opens a remembered deep link once the gates pass, not before', () => {
    expect(decideGate({ ...base, agreement: 'not_agreed', pathname: '/onboarding', pendingPath: '/skin/5' })).toEqual({ kind: 'render' });
    expect(decideGate({ ...base, pathname: '/onboarding', pendingPath: '/skin/5' })).toEqual({ kind: 'redirect', to: '/skin/5' });
    expect(decideGate({ ...base, pathname: '/skin/5', pendingPath: '/skin/5' })).toEqual({ kind: 'render' });
  });
});

describe('route table (resolveRoute)', () => {
  const page = (pathname: string) => {
    const r = resolveRoute(pathname);
    return r.kind === 'page' ? { page: r.page, params: r.params, layout: r.layout } : r;
  };

  it('maps every screen of the spec, inside or outside the layout', () => {
    const layout: Array<[string, PageKey]> = [
      ['/', 'home'],
      ['/cases', 'cases'],
      ['/skins', 'skins'],
      ['/referrals', 'referrals'],
      ['/profile', 'profile'],
      ['/packages', 'packages'],
      ['/trade-url', 'tradeUrl'],
      ['/farm', 'farm'],
      ['/withdraw', 'withdraw'],
      ['/support', 'support'],
      ['/fair', 'fair'],
    ];
    for (const [path, key] of layout) expect(page(path)).toEqual({ page: key, params: {}, layout: true });
    const bare: Array<[string, PageKey]> = [
      ['/login', 'login'],
      ['/onboarding', 'onboarding'],
    ];
    for (const [path, key] of bare) expect(page(path)).toEqual({ page: key, params: {}, layout: false });
  });

  it('reads the ids of deep links', () => {
    expect(page('/skin/55')).toEqual({ page: 'skin', params: { weaponId: '55' }, layout: true });
    expect(page('/support/ticket/7')).toEqual({ page: 'ticket', params: { ticketId: '7' }, layout: true });
    expect(page('/case/starter')).toEqual({ page: 'case', params: { caseId: 'starter' }, layout: false });
    expect(page('/case-result/12')).toEqual({ page: 'caseResult', params: { assetId: '12' }, layout: false });
    expect(page('/case-results')).toEqual({ page: 'caseResults', params: {}, layout: false });
    expect(page('/case/a%20b')).toEqual({ page: 'case', params: { caseId: 'a b' }, layout: false });
  });

  it('ignores a trailing slash and the case of fixed segments', () => {
    expect(page('/cases/')).toEqual({ page: 'cases', params: {}, layout: true });
    expect(page('/Skin/9')).toEqual({ page: 'skin', params: { weaponId: '9' }, layout: true });
  });

  it('redirects the old inventory path; anything unknown says so (then goes home)', () => {
    expect(resolveRoute('/inventory')).toEqual({ kind: 'redirect', to: '/skins' });
    const notFound = { kind: 'page', page: 'notFound', params: {}, layout: false };
    expect(resolveRoute('/nowhere')).toEqual(notFound);
    expect(resolveRoute('/skin')).toEqual(notFound);
    expect(resolveRoute('/skin/')).toEqual(notFound);
    expect(resolveRoute('/skin/1/2')).toEqual(notFound);
  });
});

describe('matchPath', () => {
  it('matches fixed and parameter segments', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/', '/x')).toBeNull();
    expect(matchPath('/a/:id', '/a/1')).toEqual({ id: '1' });
    expect(matchPath('/a/:id', '/a')).toBeNull();
    expect(matchPath('/a/:id', '/b/1')).toBeNull();
  });
});
