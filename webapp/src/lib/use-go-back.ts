import { useCallback } from 'react';
import { useLocation, useNavigate } from './router';

/**
 * "Go back one step", or to `fallback` when the screen was the first one opened (a deep link,
 * a reload): then there is no step back inside the app. Same rule as the native back button.
 */
export function useGoBack(fallback = '/'): () => void {
  const navigate = useNavigate();
  const { key } = useLocation();
  return useCallback(() => {
    if (key === 'default' || window.history.length <= 1) navigate(fallback, { replace: true });
    else navigate(-1);
  }, [key, navigate, fallback]);
}
