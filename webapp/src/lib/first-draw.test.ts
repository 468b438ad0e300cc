import { beforeEach, describe, expect, it } from 'vitest';

import { firstScreenCommitted, onFirstScreenDrawn, resetFirstDraw } from './first-draw';

/** A hand-driven animation frame clock. */
function frames() {
  let queue: Array<() => void> = [];
  return {
    raf: (cb: () => void) => queue.push(cb),
    /** Runs the callbacks of one frame (those registered before it started). */
    tick() {
      const now = queue;
      queue = [];
      for (const cb of now) cb();
    },
  };
}

describe('first screen drawn', () => {
  beforeEach(() => resetFirstDraw());

  it('fires after the frame that paints the first screen, not at its commit', () => {
    const clock = frames();
    const seen: string[] = [];
    onFirstScreenDrawn(() => seen.push('ready'));
    firstScreenCommitted(clock.raf);
    expect(seen).toEqual([]);
    clock.tick(); // the frame that paints the screen: its callbacks run before the paint
    expect(seen).toEqual([]);
    clock.tick(); // the next frame: the screen has been painted
    expect(seen).toEqual(['ready']);
  });

  it('fires once, for the first screen only', () => {
    const clock = frames();
    let n = 0;
    onFirstScreenDrawn(() => (n += 1));
    firstScreenCommitted(clock.raf);
    firstScreenCommitted(clock.raf);
    clock.tick();
    firstScreenCommitted(clock.raf);
    clock.tick();
    clock.tick();
    clock.tick();
    expect(n).toBe(1);
  });

  it('ignores screens drawn before Telegram is set up (the development gate)', () => {
    const clock = frames();
    let n = 0;
    firstScreenCommitted(clock.raf);
    clock.tick();
    clock.tick();
    onFirstScreenDrawn(() => (n += 1));
    firstScreenCommitted(clock.raf);
    clock.tick();
    clock.tick();
    expect(n).toBe(1);
  });
});
