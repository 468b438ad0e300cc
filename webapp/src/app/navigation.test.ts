import { describe, expect, it } from 'vitest';

import { activeTab, backTarget, decideGate, hasBottomPadding, isTabBarHidden } from './navigation';

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
    for (const p of ['/case/starter', '/case-result/5', '/skin/5', '/packages', '/farm', '/trade-url', '/support', '/support/ticket/3', '/fair']) {
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
    for (const p of ['/', '/cases', '/skins', '/referrals', '/profile', '/login', '/onboarding']) expect(backTarget(p), p).toBeNull();
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
