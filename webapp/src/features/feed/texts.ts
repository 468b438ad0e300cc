/**
 * The ribbon's texts travel with its lazily loaded chunk, not in the start-up bundle. Feature
 * modules are built free of side effects (vite.config.ts), so the ribbon adds them by a call.
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

let added = false;

export function ensureFeedTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
