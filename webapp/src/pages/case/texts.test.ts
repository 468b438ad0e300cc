import { describe, expect, it } from 'vitest';

import { tokensMissing } from '../../features/cases';
import { addTexts, translate } from '../../i18n';
import { formatTokens, formatTokensInt } from '../../lib/format';
import en from './texts/en.json';
import ru from './texts/ru.json';

// The case screen's texts, as the screen adds them when it loads.
addTexts({ ru, en });

describe('the open button says how many tokens are missing', () => {
  const label = async (lang: 'ru' | 'en', price: number, balance: number) => {
    const short = tokensMissing(price, balance);
    return translate(lang, 'caseScreen.openShort', { price: formatTokensInt(price, lang), missing: formatTokens(short, lang), count: short });
  };

  it('in Russian, with the plural the number takes', async () => {
    expect(await label('ru', 500, 380)).toBe('Открыть за 500 · не хватает 120 токенов');
    expect(await label('ru', 25, 24)).toBe('Открыть за 25 · не хватает 1 токена');
    expect(await label('ru', 1500, 1497.5)).toBe('Открыть за 1\u00a0500 · не хватает 2,5 токена');
  });

  it('in English', async () => {
    expect(await label('en', 500, 380)).toBe('Open for 500 · 120 tokens short');
    expect(await label('en', 25, 24)).toBe('Open for 25 · 1 token short');
    expect(await label('en', 1500, 1497.5)).toBe('Open for 1,500 · 2.5 tokens short');
  });
});
