/**
 * The trade link texts travel with the screens that show them, not in the start-up bundle. Feature
 * modules are built free of side effects (vite.config.ts), so they are added by a call.
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

let added = false;

export function ensureTradeUrlTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
