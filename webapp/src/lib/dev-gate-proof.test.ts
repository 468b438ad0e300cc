import { describe, expect, it } from 'vitest';

import { devGateHeaders, forgetProof, readProof, saveProof } from './dev-gate-proof';

describe('the development gate proof (server-side gate)', () => {
  it('keeps the server proof for this tab and sends it on sign-in and demo init data', () => {
    saveProof('opaque-proof', Date.now() / 1000 + 600);
    expect(readProof()).toBe('opaque-proof');
    expect(devGateHeaders()).toEqual({ 'X-Dev-Gate': 'opaque-proof' });
    forgetProof();
    expect(devGateHeaders()).toEqual({});
  });

  it('forgets an expired proof', () => {
    saveProof('old', Date.now() / 1000 - 1);
    expect(readProof()).toBeNull();
  });
});
