/** The referrals feature's public entry. */
export type { Referral } from './api';
export { useReferrals } from './store';
