/**
 * The texts of opening several cases at once (the ×1…×5 choice, the result screen of several)
 * travel with those screens, not in the start-up bundle: added by a call, as the goods texts are
 * (feature modules are built free of side effects).
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

let added = false;

export function ensureMultiTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
