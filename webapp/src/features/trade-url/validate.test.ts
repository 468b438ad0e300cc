import { describe, expect, it } from 'vitest';

import { isValidTradeUrl } from './validate';

const ok = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9';

describe('trade URL rule (same as the server)', () => {
  it('accepts a well-formed trade URL', () => {
    expect(isValidTradeUrl(ok)).toBe(true);
    expect(isValidTradeUrl(`  ${ok}  `)).toBe(true);
    expect(isValidTradeUrl('https://steamcommunity.com/tradeoffer/new/?partner=4294967295&token=x')).toBe(true);
    expect(isValidTradeUrl('https://steamcommunity.com/tradeoffer/new/?partner=1&token=x')).toBe(true);
  });

  it('rejects a partner of zero or above 2^32-1', () => {
    expect(isValidTradeUrl('https://steamcommunity.com/tradeoffer/new/?partner=0&token=x')).toBe(false);
    expect(isValidTradeUrl('https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=x')).toBe(false);
    expect(isValidTradeUrl('https://steamcommunity.com/tradeoffer/new/?partner=99999999999999999999&token=x')).toBe(false);
  });

  it('rejects other hosts, schemes, paths and token characters', () => {
    for (const bad of [
      '',
      'http://steamcommunity.com/tradeoffer/new/?partner=1&token=x',
      'https://steamcommunity.co/tradeoffer/new/?partner=1&token=x',
      'https://evil.com/?https://steamcommunity.com/tradeoffer/new/?partner=1&token=x',
      'https://steamcommunity.com/tradeoffer/new?partner=1&token=x',
      'https://steamcommunity.com/tradeoffer/new/?token=x&partner=1',
      'https://steamcommunity.com/tradeoffer/new/?partner=1&token=',
      'https://steamcommunity.com/tradeoffer/new/?partner=1&token=a.b',
      'https://steamcommunity.com/tradeoffer/new/?partner=-1&token=x',
      `${ok}&x=1`,
      `https://steamcommunity.com/tradeoffer/new/?partner=1&token=${'a'.repeat(65)}`,
    ]) {
      expect(isValidTradeUrl(bad), bad).toBe(false);
    }
  });
});
