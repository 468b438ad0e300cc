/**
 * index.html's static copy of onboarding's first slide (a first visit's first paint, shown by
 * public/first-slide.js): removed when the app draws its own first screen, in the same commit
 * (layout effect) for onboarding, so the real slide replaces the copy in one frame.
 */
export function removeStaticSlide(): void {
  if (typeof document === 'undefined') return;
  document.getElementById('first-slide')?.remove();
  document.documentElement.removeAttribute('data-first-slide');
}
