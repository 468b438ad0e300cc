import { describe, expect, it } from 'vitest';

import { flattenKeys } from '../../i18n';
import en from './i18n/en.json';
import ru from './i18n/ru.json';

describe('the onboarding’s 18+ texts', () => {
  it('ru and en have the same keys', () => {
    expect(flattenKeys(ru).sort()).toEqual(flattenKeys(en).sort());
    expect(en.adult.notForYouTitle).toBe('This shop is not for you');
  });
});
