import { useEffect } from 'react';
import { useLocation, useNavigate } from '../lib/router';

import { useSettings } from '../features/settings';
import { applyChromeColors, onThemeChanged, setBackButton } from '../lib/telegram';
import { applyPageColors } from './palette';
import { useBackOverride } from './back-button';
import { backTarget } from './navigation';

/** Spec section 2: scroll resets to the top on every path change. */
export function useScrollReset(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}

/** Telegram's native back button on detail screens, with the spec's exceptions. */
export function useNativeBackButton(): void {
  const { pathname, key } = useLocation();
  const navigate = useNavigate();
  const hidden = useBackOverride((s) => s.hiders > 0);
  useEffect(() => {
    const target = backTarget(pathname);
    if (target === null || hidden) {
      setBackButton(null);
      return;
    }
    setBackButton(() => {
      if (target !== -1) navigate(target);
      // Opened straight on a detail screen (deep link): there is no step back inside the app.
      else if (key === 'default' || window.history.length <= 1) navigate('/', { replace: true });
      else navigate(-1);
    });
  }, [pathname, key, hidden, navigate]);
}

/** Applies the theme to the document and to Telegram's header and bottom bar. */
export function useThemeSync(): void {
  const theme = useSettings((s) => s.theme);
  const telegramScheme = useSettings((s) => s.telegramScheme);
  const language = useSettings((s) => s.language);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    const matches = telegramScheme === theme;
    if (matches) root.dataset.tgTheme = '';
    else delete root.dataset.tgTheme;
    applyChromeColors(theme, applyPageColors(theme, matches));
    // The client's palette may change without a change of scheme: follow it live, with the
    // theme as it is then (a scheme change re-runs this effect, and a late call must not
    // paint the previous theme over it).
    let live = true;
    const off = onThemeChanged(() => {
      if (!live) return;
      const s = useSettings.getState();
      applyChromeColors(s.theme, applyPageColors(s.theme, s.telegramScheme === s.theme));
    });
    return () => {
      live = false;
      off();
    };
  }, [theme, telegramScheme]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
}
