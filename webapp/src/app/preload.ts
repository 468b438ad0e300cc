/**
 * Spec section 7: cases, packages, referrals and items are loaded at start. The app warms these
 * stores after sign-in, once the first paint is done, so every screen opens with data (the home
 * screen asks again; the second call does nothing). Orchestration across features, so it lives
 * with the app, not in a feature; a chunk of its own (start.tsx imports it lazily).
 */
import { useCases } from '../features/cases';
import { useInventory } from '../features/inventory';
import { usePayments } from '../features/payments';
import { useReferrals } from '../features/referrals';

let done = false;

export function preloadStartData(): void {
  if (done) return;
  done = true;
  const run = () => {
    void useCases.getState().load();
    void useInventory.getState().load();
    void usePayments.getState().load();
    void useReferrals.getState().load(1);
  };
  const idle = (window as unknown as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void }).requestIdleCallback;
  if (idle) idle(run, { timeout: 1500 });
  else setTimeout(run, 300);
}
