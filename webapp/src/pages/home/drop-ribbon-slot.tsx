/**
 * Where the live drop ribbon goes (issue 24, point 1: a later change streams it from
 * `GET /api/v1/feed`). Until then it draws nothing: no made-up drops.
 */
export function DropRibbonSlot() {
  return null;
}
