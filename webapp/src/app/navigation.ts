/**
 * Navigation rules of spec section 2, as pure functions (unit-tested in navigation.test.ts).
 */
import { matchPath, type Params } from '../lib/router';

/** The screens (one lazily loaded chunk each, app/routes.tsx). */
export type PageKey =
  | 'home'
  | 'cases'
  | 'case'
  | 'caseResult'
  | 'caseResults'
  | 'skins'
  | 'skin'
  | 'withdraw'
  | 'packages'
  | 'referrals'
  | 'farm'
  | 'support'
  | 'ticket'
  | 'fair'
  | 'profile'
  | 'tradeUrl'
  | 'login'
  | 'onboarding'
  | 'notFound';

/** Screens drawn inside the layout (tab bar, padding). */
const layoutRoutes: ReadonlyArray<readonly [string, PageKey]> = [
  ['/', 'home'],
  ['/cases', 'cases'],
  ['/skins', 'skins'],
  ['/referrals', 'referrals'],
  ['/profile', 'profile'],
  ['/skin/:weaponId', 'skin'],
  ['/packages', 'packages'],
  ['/trade-url', 'tradeUrl'],
  ['/farm', 'farm'],
  ['/withdraw', 'withdraw'],
  ['/support', 'support'],
  ['/support/ticket/:ticketId', 'ticket'],
  ['/fair', 'fair'],
];

/** Full-screen screens outside the layout. */
const bareRoutes: ReadonlyArray<readonly [string, PageKey]> = [
  ['/login', 'login'],
  ['/onboarding', 'onboarding'],
  ['/case/:caseId', 'case'],
  ['/case-result/:assetId', 'caseResult'],
  ['/case-results', 'caseResults'],
];

export type RouteMatch = { kind: 'page'; page: PageKey; params: Params; layout: boolean } | { kind: 'redirect'; to: string };

/**
 * Spec section 2's route table. `/case-result/{assetId}` appears twice in the spec; it is one
 * route outside the layout, keyed by the inventory item id (docs/decisions.md).
 * `/skin/{weaponId}` is keyed by the inventory item id too (the deep link `item_{id}_ref..`).
 * `/inventory` is the old name of `/skins`; any other path shows the not-found notice, which
 * goes home (issue 24: an unknown link says so before going home).
 */
export function resolveRoute(pathname: string): RouteMatch {
  for (const [layout, table] of [
    [true, layoutRoutes],
    [false, bareRoutes],
  ] as const) {
    for (const [pattern, page] of table) {
      const params = matchPath(pattern, pathname);
      if (params) return { kind: 'page', page, params, layout };
    }
  }
  if (matchPath('/inventory', pathname)) return { kind: 'redirect', to: '/skins' };
  return { kind: 'page', page: 'notFound', params: {}, layout: false };
}

export type TabKey = 'home' | 'cases' | 'skins' | 'referrals' | 'profile';

export const tabs: ReadonlyArray<{ key: TabKey; path: string }> = [
  { key: 'home', path: '/' },
  { key: 'cases', path: '/cases' },
  { key: 'skins', path: '/skins' },
  { key: 'referrals', path: '/referrals' },
  { key: 'profile', path: '/profile' },
];

/** The active tab is the one whose path equals or is a prefix of the current path ('/' only exactly). */
export function activeTab(pathname: string): TabKey | null {
  let best: { key: TabKey; path: string } | null = null;
  for (const tab of tabs) {
    const matches =
      tab.path === '/' ? pathname === '/' : pathname === tab.path || pathname.startsWith(`${tab.path}/`);
    if (matches && (!best || tab.path.length > best.path.length)) best = tab;
  }
  return best?.key ?? null;
}

const tabBarHiddenPrefixes = ['/case/', '/case-result', '/skin/', '/packages', '/farm', '/trade-url', '/support', '/fair'];

/** The tab bar is hidden on detail screens (spec list, plus the fairness page). */
export function isTabBarHidden(pathname: string): boolean {
  return tabBarHiddenPrefixes.some((p) => pathname.startsWith(p));
}

/** Support screens have no bottom padding; the others keep room for the tab bar. */
export function hasBottomPadding(pathname: string): boolean {
  return !(pathname === '/support' || pathname.startsWith('/support/'));
}

/**
 * Where Telegram's back button goes on this path: `null` = hidden (tab roots, login,
 * onboarding), `-1` = one step back, a path = that screen (case → store, ticket → support).
 */
export function backTarget(pathname: string): null | -1 | string {
  // Friends keeps its invite on Telegram's main button, so the tab bar yields there (issue 32):
  // the back button is the way out.
  if (pathname === '/referrals') return -1;
  if (tabs.some((t) => t.path === pathname)) return null;
  if (pathname === '/login' || pathname === '/onboarding' || pathname === '/inventory') return null;
  if (pathname.startsWith('/case/')) return '/cases';
  if (pathname.startsWith('/support/ticket/')) return '/support';
  return -1;
}

export type Agreement = 'unknown' | 'agreed' | 'not_agreed';

export type GateDecision = { kind: 'render' } | { kind: 'wait' } | { kind: 'redirect'; to: string };

/**
 * Gates in the spec's order after maintenance (which replaces the whole app): the /login
 * development gate, then the terms agreement (/onboarding), then the app.
 */
export function decideGate(p: {
  pathname: string;
  devGate: boolean;
  isAuthenticated: boolean;
  agreement: Agreement;
  /** A start-up deep link waiting for the gates (opened once they pass). */
  pendingPath?: string | null;
}): GateDecision {
  if (p.devGate && !p.isAuthenticated) {
    return p.pathname === '/login' ? { kind: 'render' } : { kind: 'redirect', to: '/login' };
  }
  if (p.pathname === '/login') return { kind: 'redirect', to: '/' };
  if (p.agreement === 'unknown') return { kind: 'wait' };
  if (p.agreement === 'not_agreed') {
    return p.pathname === '/onboarding' ? { kind: 'render' } : { kind: 'redirect', to: '/onboarding' };
  }
  if (p.pendingPath && p.pathname !== p.pendingPath) return { kind: 'redirect', to: p.pendingPath };
  if (p.pathname === '/onboarding') return { kind: 'redirect', to: '/' };
  return { kind: 'render' };
}
