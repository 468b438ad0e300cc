/** The session feature's public entry (sign-in, token, profile). */
export { setInitDataSource, useSession } from './store';
