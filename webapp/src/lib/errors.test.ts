import { beforeEach, describe, expect, it } from 'vitest';

import { translate } from '../i18n';
import { ApiError } from './api-client';
import { errorText } from './errors';
import { formatDateTime, formatTime } from './format';
import { useSettings } from './settings';

const tr = (key: string, params?: Record<string, string | number>) => translate(useSettings.getState().language, key, params);

describe('refusals with figures are said by the app (issue 32, point 4)', () => {
  beforeEach(() => useSettings.setState({ language: 'ru' }));

  it('says a break in the player’s language with the local end time, never the server’s UTC stamp', () => {
    const until = '2026-12-01T18:30:00Z';
    const e = new ApiError(403, 'self_excluded', 'Вы взяли паузу от игры до 2026-12-01 18:30:00 UTC', { code: 'self_excluded', until, permanent: false });
    const text = errorText(e, tr);
    expect(text).toContain(formatDateTime(new Date(until)));
    expect(text).not.toContain('UTC');
    expect(text).not.toContain('2026-12-01');
    expect(text).toMatch(/паузе/);
    const forGood = new ApiError(403, 'self_excluded', 'x', { code: 'self_excluded', until: null, permanent: true });
    expect(errorText(forGood, tr)).toMatch(/бессрочно/);
  });

  it('says a spend-limit refusal in tokens, with what is left today and when it resets', () => {
    const e = new ApiError(403, 'spend_limit', 'Дневной лимит трат: потрачено 450 из 500 фрагов', { code: 'spend_limit', limit: 500, spent: 450, resetsAt: '2026-12-02T00:00:00Z' });
    const text = errorText(e, tr);
    expect(text).toMatch(/токенов/);
    expect(text).not.toMatch(/фраг/);
    expect(text).toContain('осталось 50');
    expect(text).toContain(formatTime(new Date('2026-12-02T00:00:00Z')));
    useSettings.setState({ language: 'en' });
    expect(errorText(e, tr)).toMatch(/450 of 500 tokens spent, 50 left today/);
  });

  it('falls back to the server’s text when the figures are missing', () => {
    const e = new ApiError(403, 'spend_limit', 'server text', { code: 'spend_limit' });
    expect(errorText(e, tr)).toBe('server text');
  });
});
