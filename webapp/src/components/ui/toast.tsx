import { create } from 'zustand';

import { Img } from './img';
import styles from './toast.module.css';

/** Spec section 9: toasts last 3000 ms unless a screen says otherwise (sale 3 s, purchase 2 s). */
export const DEFAULT_TOAST_MS = 3000;

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastOptions {
  kind?: ToastKind;
  /** Main text. */
  text: string;
  /** Optional bold first line (e.g. "Предмет продан"). */
  title?: string;
  /** Optional image (e.g. the sold skin), resolved like every item image. */
  image?: string | null;
  durationMs?: number;
}

interface ToastEntry extends Required<Omit<ToastOptions, 'title' | 'image'>> {
  id: number;
  title?: string;
  image?: string | null;
}

interface ToastState {
  toasts: ToastEntry[];
  show: (opts: ToastOptions) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;
/** At most this many toasts are visible; older ones make room. */
const MAX_VISIBLE = 3;

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show: (opts) => {
    const id = nextId++;
    const entry: ToastEntry = {
      id,
      kind: opts.kind ?? 'info',
      text: opts.text,
      title: opts.title,
      image: opts.image,
      durationMs: opts.durationMs ?? DEFAULT_TOAST_MS,
    };
    set({ toasts: [...get().toasts, entry].slice(-MAX_VISIBLE) });
    setTimeout(() => get().dismiss(id), entry.durationMs);
    return id;
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));

/** `toast.success('Saved')`, `toast.error(text, {durationMs: 2000})`, `toast.show({...})`. */
export const toast = {
  show: (opts: ToastOptions) => useToasts.getState().show(opts),
  success: (text: string, opts: Partial<ToastOptions> = {}) => useToasts.getState().show({ ...opts, text, kind: 'success' }),
  error: (text: string, opts: Partial<ToastOptions> = {}) => useToasts.getState().show({ ...opts, text, kind: 'error' }),
  info: (text: string, opts: Partial<ToastOptions> = {}) => useToasts.getState().show({ ...opts, text, kind: 'info' }),
  dismiss: (id: number) => useToasts.getState().dismiss(id),
};

/** Rendered once by the app shell, top-centre, below the safe area. */
export function Toaster() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className={styles.stack} aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`${styles.toast} ${styles[t.kind]}`}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-toast={t.kind}
          onClick={() => dismiss(t.id)}
        >
          {t.image !== undefined && <Img src={t.image} className={styles.image} alt="" />}
          {t.image === undefined && <span className={styles.dot} aria-hidden />}
          <div className={styles.body}>
            {t.title && <div className={styles.title}>{t.title}</div>}
            <div className={styles.text}>{t.text}</div>
          </div>
        </div>
      ))}
    </div>
  );
}
