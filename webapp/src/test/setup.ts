/**
 * Vitest runs in Node (no DOM library: the shell's logic is plain TypeScript). Stores persist
 * to localStorage/sessionStorage, so tests get small in-memory ones, cleared before each test.
 * Both start-up dictionaries are loaded first (the app loads the active one at start), so a
 * test may speak either language; i18n/dictionaries.test.ts tests the loading itself.
 */
import { beforeEach } from 'vitest';

import { loadDictionary, setDictionarySource } from '../i18n/dictionaries';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.has(key) ? (this.map.get(key) as string) : null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

const g = globalThis as unknown as { localStorage: Storage; sessionStorage: Storage };
if (!('localStorage' in globalThis) || !g.localStorage) g.localStorage = new MemoryStorage();
if (!('sessionStorage' in globalThis) || !g.sessionStorage) g.sessionStorage = new MemoryStorage();

beforeEach(() => {
  g.localStorage.clear();
  g.sessionStorage.clear();
});

setDictionarySource({ ru: () => import('../i18n/ru.json'), en: () => import('../i18n/en.json') });
await loadDictionary('ru');
await loadDictionary('en');
