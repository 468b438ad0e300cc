import { describe, expect, it } from 'vitest';

import { awaitsAcceptance, deliveryKey, DELIVERY_STATES, STEAM_INCOMING_OFFERS_URL } from './delivery';
import en from './i18n/en.json';
import ru from './i18n/ru.json';
import { reasonKey } from './status';

describe('automatic delivery (issue 23)', () => {
  it('explains each state the skin screen shows, and nothing else', () => {
    expect(deliveryKey('offer_sent')).toBe('delivery.offer_sent');
    expect(deliveryKey('settling')).toBe('delivery.settling');
    expect(deliveryKey('bounced')).toBeNull();
    expect(deliveryKey(null)).toBeNull();
    expect(deliveryKey(undefined)).toBeNull();
  });

  it('asks to accept the offer only while one waits in Steam', () => {
    expect(awaitsAcceptance({ status: 'pending', deliveryState: 'offer_sent' })).toBe(true);
    expect(awaitsAcceptance({ status: 'pending', deliveryState: 'bought' })).toBe(false);
    expect(awaitsAcceptance({ status: 'sent', deliveryState: 'offer_sent' })).toBe(false);
    expect(STEAM_INCOMING_OFFERS_URL).toBe('https://steamcommunity.com/my/tradeoffers');
  });

  it('has every state and market reason in both languages', () => {
    for (const dict of [en, ru]) {
      for (const state of DELIVERY_STATES) expect(dict.delivery[state], state).toBeTruthy();
      for (const code of ['inventory_full', 'no_offer', 'offer_expired', 'seller_reversed'] as const) {
        expect(dict.delivery.reason[code], code).toBeTruthy();
        expect(reasonKey(code)).toBe(`delivery.reason.${code}`);
      }
      expect(dict.delivery.openOffers).toBeTruthy();
    }
    expect(Object.keys(ru.delivery).sort()).toEqual(Object.keys(en.delivery).sort());
  });
});
