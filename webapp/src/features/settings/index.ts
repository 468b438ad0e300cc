/**
 * The settings feature's public entry. The store itself is in `lib/settings.ts` (i18n and the
 * formats read it); this entry is where screens and the app take it from.
 */
export { useSettings, type Theme } from '../../lib/settings';
export { saveLanguage } from './api';
