/**
 * The app's router: browser (History API) routing over one small route table, with the few
 * hooks the screens use (`useLocation`, `useNavigate`, `useParams`, `<Link>`, `<Navigate>`,
 * `<Outlet>`), shaped like React Router's so a screen reads the same.
 *
 * Why not React Router: it was a fifth of the start-up script, and ranking its route tree on
 * every render was a visible part of the first render on a slow phone; the app needs none of
 * its data APIs. History entries keep React Router's shape (`{ usr, key, idx }`), and the first
 * entry of a tab has the key `'default'` (the "opened straight here" test of the back rules).
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry carried (`navigate(to, { state })`). */
  state: unknown;
  /** `'default'` for the entry the tab was opened on; unique per navigation otherwise. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = {
  (to: string, options?: NavigateOptions): void;
  (delta: number): void;
};

interface HistoryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

function readLocation(): Location {
  const st = (window.history.state ?? null) as HistoryState | null;
  return {
    pathname: window.location.pathname,
    search: window.location.search,
    hash: window.location.hash,
    state: st?.usr ?? null,
    key: st?.key ?? 'default',
  };
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

const LocationContext = createContext<Location | null>(null);
const NavigateContext = createContext<NavigateFunction | null>(null);

/** Holds the current location and follows the browser's back and forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const onPop = () => setLocation(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string | number, options: NavigateOptions = {}) => {
    if (typeof to === 'number') {
      window.history.go(to);
      return;
    }
    const url = new URL(to, window.location.href);
    const idx = ((window.history.state as HistoryState | null)?.idx ?? 0) + (options.replace ? 0 : 1);
    const entry: HistoryState = { usr: options.state ?? null, key: newKey(), idx };
    const href = `${url.pathname}${url.search}${url.hash}`;
    if (options.replace) window.history.replaceState(entry, '', href);
    else window.history.pushState(entry, '', href);
    setLocation(readLocation());
  }, []) as NavigateFunction;
  return (
    <NavigateContext.Provider value={navigate}>
      <LocationContext.Provider value={location}>{children}</LocationContext.Provider>
    </NavigateContext.Provider>
  );
}

export function useLocation(): Location {
  const location = useContext(LocationContext);
  if (!location) throw new Error('useLocation outside <BrowserRouter>');
  return location;
}

export function useNavigate(): NavigateFunction {
  const navigate = useContext(NavigateContext);
  if (!navigate) throw new Error('useNavigate outside <BrowserRouter>');
  return navigate;
}

/**
 * Goes to `to` once rendered (a redirect). The navigation is a transition: React renders the
 * target screen in slices, yielding to the browser between them, and keeps what is on screen
 * meanwhile (draw a placeholder beside the redirect).
 */
export function Navigate({ to, replace = false, state }: { to: string; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => startTransition(() => navigate(to, { replace, state })), [navigate, to, replace, state]);
  return null;
}

/** An in-app link: a real `<a href>` (long press, accessibility) that navigates without a reload. */
export function Link({ to, replace, state, onClick, ...rest }: { to: string; replace?: boolean; state?: unknown } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useNavigate();
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    if (rest.target && rest.target !== '_self') return;
    e.preventDefault();
    navigate(to, { replace, state });
  };
  return <a href={to} onClick={handle} {...rest} />;
}

// --- Matching ------------------------------------------------------------------------------

export type Params = Record<string, string | undefined>;

/**
 * Matches `pathname` against a pattern like `/skin/:weaponId`: static segments compare without
 * regard to case, a trailing slash is ignored, a `:name` segment takes one non-empty segment
 * (URL-decoded). Null when it does not match.
 */
export function matchPath(pattern: string, pathname: string): Params | null {
  const split = (p: string) => p.split('/').filter((s, i, all) => s !== '' || (i > 0 && i < all.length - 1));
  const want = split(pattern);
  const have = split(pathname);
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i];
    const h = have[i];
    if (w.startsWith(':')) {
      if (!h) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        params[w.slice(1)] = h;
      }
    } else if (w.toLowerCase() !== h.toLowerCase()) {
      return null;
    }
  }
  return params;
}

interface RouteContextValue {
  params: Params;
  outlet: ReactNode;
}

const RouteContext = createContext<RouteContextValue>({ params: {}, outlet: null });

/** The matched route's `:name` segments. */
export function useParams(): Params {
  return useContext(RouteContext).params;
}

/** Where a parent route draws its matched child. */
export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

/** Renders `element` as a route with `params`, its `<Outlet />` drawing `outlet`. */
export function RouteView({ element, params, outlet = null }: { element: ReactNode; params: Params; outlet?: ReactNode }) {
  const value = useMemo(() => ({ params, outlet }), [params, outlet]);
  return <RouteContext.Provider value={value}>{element}</RouteContext.Provider>;
}
