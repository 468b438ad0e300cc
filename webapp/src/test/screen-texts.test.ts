/**
 * Texts that load with their screen or feature (`pages/<screen>/texts`, `features/<name>/i18n`)
 * instead of the start-up dictionaries: each pair speaks both languages with the same keys, and
 * none takes a section the start-up dictionaries (or another pair) already own, which it would
 * overwrite when its screen loads.
 */
import { describe, expect, it } from 'vitest';

import { flattenKeys } from '../i18n';
import en from '../i18n/en.json';

type Dict = { [key: string]: string | Dict };
const files = import.meta.glob<Dict>(['../pages/*/texts/*.json', '../features/*/i18n/*.json'], { eager: true, import: 'default' });
const folders = [...new Set(Object.keys(files).map((f) => f.replace(/\/(ru|en)\.json$/, '')))];

describe('texts loaded with their screens', () => {
  it('are found', () => {
    expect(folders.length).toBeGreaterThanOrEqual(11);
  });

  it.each(folders)('%s: ru and en have the same keys, none empty', (folder) => {
    const ru = files[`${folder}/ru.json`];
    const enDict = files[`${folder}/en.json`];
    expect(ru && enDict, folder).toBeTruthy();
    const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
    expect([...new Set(flattenKeys(ru).map(base))].sort()).toEqual([...new Set(flattenKeys(enDict).map(base))].sort());
    for (const dict of [ru, enDict]) {
      const flat = flattenKeys(dict);
      expect(flat.length).toBeGreaterThan(0);
    }
  });

  it('own sections of their own', () => {
    const owners = new Map<string, string>(Object.keys(en).map((k) => [k, 'start-up']));
    for (const folder of folders) {
      for (const section of Object.keys(files[`${folder}/en.json`])) {
        expect(owners.get(section), `${folder} redefines "${section}"`).toBeUndefined();
        owners.set(section, folder);
      }
    }
  });
});
