import { describe, expect, it } from 'vitest';

import { flattenKeys, translate } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';
import { ensureGoodsTexts } from './texts';

ensureGoodsTexts();

describe('goods texts', () => {
  it('ru and en have the same keys', () => {
    expect(flattenKeys(ru).sort()).toEqual(flattenKeys(en).sort());
  });

  it('are reachable through the usual translate once the screen loaded them', () => {
    expect(translate('ru', 'goods.tier.extraordinary')).toBe('★ Редкий особый предмет');
    expect(translate('en', 'goods.bonusOf', { amount: '5' })).toBe('of which bonus: 5');
  });
});
