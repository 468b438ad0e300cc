/** Warms the stores the spec loads at start (cases, packages, referrals, items). */
export { preloadStartData } from './preload';
