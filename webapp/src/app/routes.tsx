import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

import { Splash } from '../components/ui';
import { useFirstScreenDrawn } from '../lib/first-draw';
import { Navigate, RouteView, useLocation } from '../lib/router';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { resolveRoute, type PageKey } from './navigation';
import { Root } from './root';

/*
 * Browser (history) routing, not hash routing: Telegram passes the launch parameters in the
 * URL hash (#tgWebAppData=...), which a hash router would overwrite and lose on reload, and
 * the `fragbox` server answers every unknown non-API path with index.html (SPA fallback), so
 * deep paths like /skin/55 load directly.
 *
 * The route table is `resolveRoute` (navigation.ts), drawn by the app's own small router
 * (lib/router.tsx). Every screen is its own chunk (React.lazy); the tab screens are
 * prefetched when the browser is idle (`prefetchTabs`).
 */
/** Spec section 9: a screen's script chunk may take up to 120 s, then the error screen offers a reload. */
export const CHUNK_TIMEOUT_MS = 120_000;

function withTimeout<T>(load: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ChunkLoadError: timed out loading a screen')), CHUNK_TIMEOUT_MS);
    load.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

const imports = {
  home: () => withTimeout(import('../pages/home')).then((m) => ({ default: m.HomePage })),
  cases: () => withTimeout(import('../pages/cases')).then((m) => ({ default: m.CasesPage })),
  case: () => withTimeout(import('../pages/case')).then((m) => ({ default: m.CasePage })),
  caseResult: () => withTimeout(import('../pages/case-result')).then((m) => ({ default: m.CaseResultPage })),
  caseResults: () => withTimeout(import('../pages/case-results')).then((m) => ({ default: m.CaseResultsPage })),
  skins: () => withTimeout(import('../pages/skins')).then((m) => ({ default: m.SkinsPage })),
  skin: () => withTimeout(import('../pages/skin')).then((m) => ({ default: m.SkinPage })),
  withdraw: () => withTimeout(import('../pages/withdraw')).then((m) => ({ default: m.WithdrawPage })),
  packages: () => withTimeout(import('../pages/packages')).then((m) => ({ default: m.PackagesPage })),
  referrals: () => withTimeout(import('../pages/referrals')).then((m) => ({ default: m.ReferralsPage })),
  farm: () => withTimeout(import('../pages/farm')).then((m) => ({ default: m.FarmPage })),
  support: () => withTimeout(import('../pages/support')).then((m) => ({ default: m.SupportPage })),
  ticket: () => withTimeout(import('../pages/ticket')).then((m) => ({ default: m.TicketPage })),
  fair: () => withTimeout(import('../pages/fair')).then((m) => ({ default: m.FairPage })),
  profile: () => withTimeout(import('../pages/profile')).then((m) => ({ default: m.ProfilePage })),
  tradeUrl: () => withTimeout(import('../pages/trade-url')).then((m) => ({ default: m.TradeUrlPage })),
  login: () => withTimeout(import('../pages/login')).then((m) => ({ default: m.LoginPage })),
  onboarding: () => withTimeout(import('../pages/onboarding')).then((m) => ({ default: m.OnboardingPage })),
  notFound: () => withTimeout(import('../pages/not-found')).then((m) => ({ default: m.NotFoundPage })),
} satisfies Record<PageKey, () => Promise<{ default: ComponentType }>>;

const pages = Object.fromEntries(Object.entries(imports).map(([k, load]) => [k, lazy(load)])) as Record<
  PageKey,
  LazyExoticComponent<ComponentType>
>;

/** Marks the first screen drawn; inside the Suspense boundary, so it commits with the page. */
function Drawn() {
  useFirstScreenDrawn();
  return null;
}

function page(key: PageKey) {
  const Page = pages[key];
  return (
    <>
      <Page />
      <Drawn />
    </>
  );
}

/** Draws the route of the current path inside the root route (gates, back button). */
export function AppRoutes() {
  const { pathname } = useLocation();
  const route = resolveRoute(pathname);
  let child: ReactNode;
  if (route.kind === 'redirect') {
    child = (
      <>
        <Splash />
        <Navigate to={route.to} replace />
      </>
    );
  } else {
    const leaf = <RouteView element={page(route.page)} params={route.params} />;
    child = route.layout ? <RouteView element={<Layout />} params={route.params} outlet={leaf} /> : leaf;
  }
  return (
    <ErrorBoundary>
      <Suspense fallback={<Splash />}>
        <RouteView element={<Root />} params={noParams} outlet={child} />
      </Suspense>
    </ErrorBoundary>
  );
}

const noParams = {};

/**
 * Starts loading the first screen's chunk while sign-in runs: onboarding for a player who has
 * not agreed yet, home otherwise (a deep link's screen loads on its own).
 */
export function preloadFirstScreen(agreed: boolean): void {
  if (window.location.pathname !== '/') return;
  (agreed ? imports.home : imports.onboarding)().catch(() => undefined);
}

/** Loads the tab screens' chunks in the background so a tab tap never waits for the network. */
export function prefetchTabs(): void {
  const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void }).requestIdleCallback;
  const whenIdle = () => new Promise<void>((resolve) => (idle ? idle(() => resolve(), { timeout: 3000 }) : setTimeout(resolve, 0)));
  // One screen per idle period: each import adds the screen's script and style links (a style
  // recalculation), and five at once made one long task on a slow phone.
  const run = async () => {
    for (const load of [imports.home, imports.cases, imports.skins, imports.referrals, imports.profile]) {
      await whenIdle();
      await load().catch(() => undefined);
    }
  };
  // Well after the first screen settled: the other tabs must not compete with it for the
  // main thread on a slow phone (they are small, and a tap waits at most for one of them).
  setTimeout(() => void run(), 4000);
}
