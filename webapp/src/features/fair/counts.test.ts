import { describe, expect, it } from 'vitest';

import { openNumber, openRange } from './counts';

describe('counts shown to players start at 1', () => {
  it('the open with nonce 0 is open #1', () => {
    expect(openNumber(0)).toBe(1);
    expect(openNumber(41)).toBe(42);
  });

  it('a seed pair used for nonces 0..2 covered opens 1..3', () => {
    expect(openRange(0, 2)).toEqual({ from: 1, to: 3 });
    expect(openRange(5, 5)).toEqual({ from: 6, to: 6 });
  });
});
