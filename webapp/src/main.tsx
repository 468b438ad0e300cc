import './styles/theme.css';
import './styles/global.css';

/** A task boundary (the shell's `nextTask`, repeated here: the entry imports nothing else). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/*
 * The entry is only this: index.html's static splash is painted first, then the app starts.
 * Its modules are already downloading (index.html preloads them, see vite.config.ts), so
 * waiting for the paint costs no network time. The big libraries are evaluated one per task
 * (React DOM, then the Telegram SDK, then the app), so none of them holds the main
 * thread long on a slow phone (the modules are the same ones the app imports: each is
 * evaluated once).
 */
async function start(): Promise<void> {
  await import('react-dom/client');
  await nextTask();
  await import('@telegram-apps/sdk-react');
  await nextTask();
  await import('./start');
}

const go = () => void start();
if (document.visibilityState === 'hidden' || typeof requestAnimationFrame !== 'function') go();
else requestAnimationFrame(() => setTimeout(go, 0));
