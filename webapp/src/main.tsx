import './styles/theme.css';
import './styles/global.css';

/*
 * The entry is only this: index.html's static splash is painted first, then the app starts.
 * Its modules are already downloading (index.html preloads them, see vite.config.ts), so
 * waiting for the paint costs no network time; without it a phone shows nothing until the
 * whole start-up script has been evaluated.
 */
const start = () => void import('./start');
if (document.visibilityState === 'hidden' || typeof requestAnimationFrame !== 'function') start();
else requestAnimationFrame(() => setTimeout(start, 0));
