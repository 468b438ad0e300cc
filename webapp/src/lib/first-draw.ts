import { useEffect } from 'react';

import { removeStaticSlide } from './static-slide';

/**
 * "The first screen is drawn": Telegram keeps its loading placeholder up until the app sends
 * `web_app_ready`, so that is sent after the frame that paints the first real screen (not the
 * splash), not when rendering starts. Every screen that can come first calls
 * `useFirstScreenDrawn()`; its effect runs after the commit that put it in the DOM, the first
 * animation frame callback after that runs before the frame is painted, the second one after.
 */
let handler: (() => void) | null = null;
let done = false;
let painted: () => void = () => undefined;

/** Resolves once the first screen has been painted (after the handler ran). */
export const firstScreenPainted = new Promise<void>((resolve) => (painted = resolve));

type Raf = (cb: () => void) => unknown;

/** What to do once the first screen is drawn (main.tsx: send `web_app_ready`). */
export function onFirstScreenDrawn(next: (() => void) | null): void {
  handler = next;
}

/** Runs `cb` after the next frame has been painted. */
export function afterNextPaint(cb: () => void, raf: Raf | undefined = globalThis.requestAnimationFrame?.bind(globalThis)): void {
  if (!raf) {
    setTimeout(cb, 0);
    return;
  }
  raf(() => raf(cb));
}

/** Called by a screen after it committed; only the first one (with a handler set) counts. */
export function firstScreenCommitted(raf?: Raf): void {
  // Whatever screen comes first replaces index.html's static first slide, if it is up.
  removeStaticSlide();
  if (done || !handler) return;
  done = true;
  const run = handler;
  afterNextPaint(() => {
    run();
    painted();
  }, raf);
}

/** For screens that can be the first one drawn. */
export function useFirstScreenDrawn(): void {
  useEffect(() => firstScreenCommitted(), []);
}

/** Tests only: forget that a first screen was drawn. */
export function resetFirstDraw(): void {
  done = false;
  handler = null;
}
