/**
 * The goods texts travel with the screens that show goods, not in the start-up bundle. Feature
 * modules are built as free of side effects (vite.config.ts), so the texts are added by a call:
 * each goods component makes it, and a screen that uses `goods.*` or `skins.*` keys itself
 * makes it once at load.
 */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

let added = false;

export function ensureGoodsTexts(): void {
  if (added) return;
  added = true;
  addTexts({ ru, en });
}
