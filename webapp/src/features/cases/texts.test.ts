import { describe, expect, it } from 'vitest';

import { flattenKeys, translate } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';
import { ensureMultiTexts } from './texts';

ensureMultiTexts();

describe('texts of opening several at once', () => {
  it('ru and en have the same keys (plural forms differ by language)', () => {
    const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
    expect([...new Set(flattenKeys(ru).map(base))].sort()).toEqual([...new Set(flattenKeys(en).map(base))].sort());
  });

  it('are reachable through the usual translate, with plurals', () => {
    expect(translate('en', 'multiOpen.countOption', { count: 3 })).toBe('×3');
    expect(translate('en', 'results.title', { count: 3 })).toBe('You won 3 skins');
    expect(translate('ru', 'results.title', { count: 5 })).toBe('Вы выиграли 5 скинов');
    expect(translate('ru', 'results.title', { count: 2 })).toBe('Вы выиграли 2 скина');
    expect(translate('ru', 'results.sellAll', { price: '12' })).toBe('Продать все за 12');
    expect(translate('en', 'multiOpen.insufficientTextMany', { n: 3, price: '450', balance: '400', missing: '50', count: 50 })).toBe(
      '3 cases cost 450, you have 400: 50 more tokens are needed. Open fewer, top up your balance or invite a friend.',
    );
  });
});
