/**
 * The responsible-play and promo texts travel with the screens that show them (the profile, the
 * case page), not in the start-up bundle: each of those screens calls this once at load.
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

let added = false;

export function ensureResponsibleTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
