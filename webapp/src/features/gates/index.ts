/** The gates feature's public entry (maintenance, terms agreement, development gate). */
export { MAINTENANCE_POLL_MS, useGates } from './store';
