import { describe, expect, it } from 'vitest';

import { flattenKeys, translate } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';
import { PROMO_ERRORS } from './logic';
import { ensureResponsibleTexts } from './texts';

ensureResponsibleTexts();

describe('responsible-play texts', () => {
  it('ru and en have the same keys', () => {
    expect(flattenKeys(ru).sort()).toEqual(flattenKeys(en).sort());
  });

  it('have a clear text for every refusal of a promo code, in both languages', () => {
    for (const code of PROMO_ERRORS) {
      for (const lang of ['ru', 'en'] as const) {
        const text = translate(lang, `responsible.promoErrors.${code}`);
        expect(text, `${lang} ${code}`).not.toBe(`responsible.promoErrors.${code}`);
        expect(text.length).toBeGreaterThan(10);
      }
    }
    expect(translate('en', 'responsible.promoSuccess', { amount: '50' })).toBe('+50 bonus tokens from the code');
    expect(translate('ru', 'responsible.limitValue', { limit: '100', spent: '20' })).toBe('100 в день · сегодня потрачено 20');
  });
});
