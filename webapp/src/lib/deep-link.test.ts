import { describe, expect, it } from 'vitest';

import { parseStartParam, startPath } from './deep-link';

describe('start parameter', () => {
  it('opens a shared skin from item_{id}_ref{hex}', () => {
    expect(parseStartParam('item_55_refa1b2c3d4e5')).toEqual({ kind: 'item', itemId: '55', ref: 'a1b2c3d4e5' });
    expect(startPath('item_55_refa1b2c3d4e5')).toBe('/skin/55');
  });

  it('reads an invite without opening a screen', () => {
    expect(parseStartParam('ref_a1b2c3d4e5')).toEqual({ kind: 'ref', ref: 'a1b2c3d4e5' });
    expect(startPath('ref_a1b2c3d4e5')).toBeNull();
  });

  it('ignores malformed parameters', () => {
    for (const p of ['', 'item_', 'item_55', 'item_55_ref', 'item_5_5_refab', 'item_55_refXYZ', 'hello', null, undefined]) {
      expect(startPath(p), String(p)).toBeNull();
    }
  });
});

describe('the share ref of a skin link', () => {
  it('is the owner ref for the linked item only', async () => {
    const { shareRefFor } = await import('./deep-link');
    expect(shareRefFor('item_55_ref0a1b2c3d4e', '55')).toBe('0a1b2c3d4e');
    expect(shareRefFor('item_55_ref0a1b2c3d4e', '56')).toBeNull();
    expect(shareRefFor('ref_0a1b2c3d4e', '55')).toBeNull();
    expect(shareRefFor(null, '55')).toBeNull();
  });
});
