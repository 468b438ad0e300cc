import { describe, expect, it } from 'vitest';

import { dictionaries, translate } from '../../i18n';
import { tradeUrlProblem, tradeUrlProblemKey, type TradeUrlProblem } from './problem';
import { ensureTradeUrlTexts } from './texts';
import { isValidTradeUrl } from './validate';

ensureTradeUrlTexts();

const ok = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9';

describe('what is wrong with a trade link', () => {
  it('finds nothing wrong with a valid link, surrounding spaces aside', () => {
    expect(tradeUrlProblem(ok)).toBeNull();
    expect(tradeUrlProblem(`  ${ok} `)).toBeNull();
  });

  it('names the first problem a player would fix', () => {
    const cases: Array<[string, TradeUrlProblem]> = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['steam trade link', 'not_link'],
      ['https://example.com/not-a-trade-link', 'not_steam'],
      ['https://steamcommunity.co/tradeoffer/new/?partner=1&token=x', 'not_steam'],
      ['http://steamcommunity.com/tradeoffer/new/?partner=1&token=x', 'not_https'],
      ['https://steamcommunity.com/id/someone', 'not_trade_offer'],
      ['https://steamcommunity.com/tradeoffer/new?partner=1&token=x', 'not_trade_offer'],
      ['https://steamcommunity.com/tradeoffer/new/', 'missing_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?token=x', 'missing_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=&token=x', 'missing_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=0&token=x', 'bad_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=-1&token=x', 'bad_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=x', 'bad_partner'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=123', 'missing_token'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=123&token=', 'missing_token'],
      ['https://steamcommunity.com/tradeoffer/new/?partner=123&token=a.b', 'bad_token'],
      [`https://steamcommunity.com/tradeoffer/new/?partner=123&token=${'a'.repeat(65)}`, 'bad_token'],
      [`${ok}&x=1`, 'extra_parts'],
      ['https://steamcommunity.com/tradeoffer/new/?token=x&partner=1', 'extra_parts'],
      [`${ok}#top`, 'extra_parts'],
    ];
    for (const [link, problem] of cases) expect(tradeUrlProblem(link), link).toBe(problem);
  });

  it('agrees with the server rule on every link', () => {
    for (const link of [ok, '', 'https://example.com', `${ok}&x=1`, 'https://steamcommunity.com/tradeoffer/new/?partner=1&token=x']) {
      expect(tradeUrlProblem(link) === null, link).toBe(isValidTradeUrl(link));
    }
  });

  it('has a text for every problem in both languages', () => {
    const all: TradeUrlProblem[] = ['empty', 'not_link', 'not_https', 'not_steam', 'not_trade_offer', 'missing_partner', 'bad_partner', 'missing_token', 'bad_token', 'extra_parts'];
    for (const lang of ['ru', 'en'] as const) {
      for (const p of all) expect(translate(lang, tradeUrlProblemKey(p)), `${lang}:${p}`).not.toBe(tradeUrlProblemKey(p));
    }
    expect(dictionaries.en).toBeTruthy();
  });
});
