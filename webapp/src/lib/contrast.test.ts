import { describe, expect, it } from 'vitest';

import { contrast, ensureContrast, parseHex } from './contrast';

const ratio = (a: string, b: string) => contrast(parseHex(a)!, parseHex(b)!);

describe('contrast', () => {
  it('matches the WCAG figures for Telegram dark hint text on its background', () => {
    expect(ratio('#708499', '#17212b')).toBeCloseTo(4.23, 1);
    expect(ratio('#708499', '#1e2c3a')).toBeCloseTo(3.69, 1);
    expect(ratio('#ffffff', '#5288c1')).toBeCloseTo(3.71, 1);
  });

  it('lifts a failing hint to AA on every background it sits on, keeping a passing one', () => {
    const fixed = ensureContrast('#708499', ['#17212b', '#1e2c3a', '#0e1621'], 4.5, '#f5f5f5');
    for (const bg of ['#17212b', '#1e2c3a', '#0e1621']) expect(ratio(fixed, bg)).toBeGreaterThanOrEqual(4.5);
    expect(ensureContrast('#000000', ['#ffffff'], 4.5, '#ffffff')).toBe('#000000');
  });

  it('darkens a light-theme orange until it reads on white and light grey', () => {
    const fixed = ensureContrast('#f5a524', ['#ffffff', '#efeff4'], 4.5, '#000000');
    expect(ratio(fixed, '#efeff4')).toBeGreaterThanOrEqual(4.5);
  });
});
