import { describe, expect, it } from 'vitest';

import { bridgeCall, bridgeIdle, bridgeLater } from './bridge-queue';

describe('bridge queue', () => {
  it('never runs a call in the caller’s task', async () => {
    const seen: string[] = [];
    bridgeCall(() => seen.push('call'));
    seen.push('caller');
    await bridgeIdle();
    expect(seen).toEqual(['caller', 'call']);
  });

  it('runs queued start-up calls in order, one per task, and later calls behind them', async () => {
    const seen: string[] = [];
    // A microtask queued by one call runs before the next call: each call is its own task.
    bridgeLater(() => {
      seen.push('a');
      queueMicrotask(() => seen.push('a-micro'));
    });
    bridgeLater(() => seen.push('b'));
    bridgeCall(() => seen.push('c'));
    // Nothing ran in the current task.
    expect(seen).toEqual([]);
    await bridgeIdle();
    expect(seen).toEqual(['a', 'a-micro', 'b', 'c']);
  });

  it('keeps going after a call throws', async () => {
    const seen: string[] = [];
    bridgeLater(() => {
      throw new Error('refused');
    });
    bridgeLater(() => seen.push('after'));
    await bridgeIdle();
    expect(seen).toEqual(['after']);
  });
});
