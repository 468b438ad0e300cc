/** The gates feature's public entry (maintenance, terms agreement, development gate). */
export { paidOnly, type AppConfig } from './api';
export { MAINTENANCE_POLL_MS, useGates } from './store';
