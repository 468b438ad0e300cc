/**
 * Local persistence with the keys of spec section 3. Only these survive a reload:
 * `token`; `app_theme`, `app_language`, `isSoundEnabled`; `isAuthenticated`, `termsAccepted`;
 * the maintenance state. Storage can be unavailable (private mode, old WebViews), so every
 * access is guarded and falls back to "not stored".
 */
export const storageKeys = {
  token: 'token',
  theme: 'app_theme',
  language: 'app_language',
  sound: 'isSoundEnabled',
  isAuthenticated: 'isAuthenticated',
  termsAccepted: 'termsAccepted',
  maintenance: 'maintenance',
  demoId: 'demoId',
  skinSort: 'skins_sort',
} as const;

type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readString(key: string, which: Area = 'local'): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null, which: Area = 'local'): void {
  try {
    const s = area(which);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Quota or privacy mode: the value simply does not persist.
  }
}

export function readBool(key: string, fallback: boolean, which: Area = 'local'): boolean {
  const raw = readString(key, which);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return fallback;
}

export function writeBool(key: string, value: boolean, which: Area = 'local'): void {
  writeString(key, value ? 'true' : 'false', which);
}

export function readJson<T>(key: string, which: Area = 'local'): T | null {
  const raw = readString(key, which);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, which: Area = 'local'): void {
  writeString(key, JSON.stringify(value), which);
}
