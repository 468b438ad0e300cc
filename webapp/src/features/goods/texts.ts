/** The goods texts travel with the screens that show goods, not in the start-up bundle. */
import { addTexts } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

addTexts({ ru, en });
