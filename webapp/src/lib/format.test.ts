import { beforeEach, describe, expect, it } from 'vitest';

import { formatDate, formatDateTime, formatTime, formatTokens, formatTokensInt } from './format';
import { useSettings } from './settings';

// ru-RU groups thousands with a no-break space (U+00A0) and uses a decimal comma.
const nb = '\u00a0';

describe('ru-RU formatting', () => {
  beforeEach(() => useSettings.setState({ language: 'ru' }));
  it('formats token amounts with up to 2 decimals', () => {
    expect(formatTokens(12345.5)).toBe(`12${nb}345,5`);
    expect(formatTokens(0.35)).toBe('0,35');
    expect(formatTokens(100)).toBe('100');
    expect(formatTokens(1.005 * 1000)).toBe(`1${nb}005`);
    expect(formatTokens(2.456)).toBe('2,46');
  });

  it('accepts numeric strings and bad input', () => {
    expect(formatTokens('5000.25')).toBe(`5${nb}000,25`);
    expect(formatTokens('abc')).toBe('0');
    expect(formatTokens(null)).toBe('0');
  });

  it('formats prices without decimals', () => {
    expect(formatTokensInt(1499.6)).toBe(`1${nb}500`);
    expect(formatTokensInt(25)).toBe('25');
  });

  it('formats dates and times in ru-RU', () => {
    const d = new Date(2026, 10, 22, 9, 5);
    expect(formatDate(d)).toBe('22.11.2026');
    expect(formatTime(d)).toBe('09:05');
    expect(formatDateTime(d)).toBe('22.11.2026, 09:05');
  });
});

describe('en-US formatting', () => {
  it('uses a decimal point and comma grouping', () => {
    expect(formatTokens(12345.5, 'en')).toBe('12,345.5');
    expect(formatTokens(6.5, 'en')).toBe('6.5');
    expect(formatTokensInt(5000, 'en')).toBe('5,000');
  });

  it('formats dates the American way', () => {
    const d = new Date(2026, 10, 23, 9, 5);
    expect(formatDate(d, 'en')).toBe('11/23/2026');
  });
});
