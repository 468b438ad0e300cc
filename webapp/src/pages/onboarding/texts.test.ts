import { describe, expect, it } from 'vitest';

import { flattenKeys } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

describe('the onboarding’s texts (slides, terms, 18+)', () => {
  it('ru and en have the same keys', () => {
    expect(flattenKeys(ru).sort()).toEqual(flattenKeys(en).sort());
    expect(en.adult.notForYouTitle).toBe('This shop is not for you');
    // The spec's Russian text, verbatim (moved here from the start-up dictionaries).
    expect(ru.onboarding.confirmError).toBe('Ошибка подтверждения. Попробуйте ещё раз.');
  });
});
