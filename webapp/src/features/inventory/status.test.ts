import { describe, expect, it } from 'vitest';
import { canTrade, capitalize, filterByTab, itemNames, ownerName, priceValue, showSellBar, showWithdraw, skinLabel, splitMarketName } from './status';

const items = [
  { id: 1, status: 'received' },
  { id: 2, status: 'pending' },
  { id: 3, status: 'sent' },
  { id: 4, status: 'error' },
  { id: 5, status: 'something-new' },
  { id: 6, status: null },
];

describe('skin tabs', () => {
  it('received holds everything but sent and pending', () => {
    expect(filterByTab(items, 'received').map((i) => i.id)).toEqual([1, 4, 5, 6]);
  });
  it('pending holds only pending', () => {
    expect(filterByTab(items, 'pending').map((i) => i.id)).toEqual([2]);
  });
  it('sent holds only sent', () => {
    expect(filterByTab(items, 'sent').map((i) => i.id)).toEqual([3]);
  });
});

describe('skin actions by status', () => {
  it('locks sell and withdraw while pending, sent or busy', () => {
    expect(canTrade('received', false)).toBe(true);
    expect(canTrade('error', false)).toBe(true);
    expect(canTrade('pending', false)).toBe(false);
    expect(canTrade('sent', false)).toBe(false);
    expect(canTrade('received', true)).toBe(false);
  });
  it('hides withdraw once sent', () => {
    expect(showWithdraw('sent')).toBe(false);
    expect(showWithdraw('pending')).toBe(true);
  });
  it('shows the sell bar only for a sellable skin without error', () => {
    expect(showSellBar('received')).toBe(true);
    expect(showSellBar('error')).toBe(false);
    expect(showSellBar('pending')).toBe(false);
  });
});

describe('skin texts', () => {
  it('splits the market name at the first pipe', () => {
    expect(splitMarketName('AK-47 | Redline | x')).toEqual({ name: 'AK-47', description: 'Redline | x' });
    expect(splitMarketName('Sticker')).toEqual({ name: 'Sticker', description: '' });
  });
  it('capitalises statuses and reads owners and prices in both shapes', () => {
    expect(capitalize('pending')).toBe('Pending');
    expect(ownerName({ name: 'Ann' })).toBe('Ann');
    expect(ownerName('Bob')).toBe('Bob');
    expect(priceValue(12.5)).toBe(12.5);
    expect(priceValue({ formatted: '12,5' })).toBe('12,5');
  });
});

describe('withdrawal failure reasons and gone items (issue 14)', () => {
  it('translates known reason codes and reads unknown ones as other', async () => {
    const { reasonKey } = await import('./status');
    expect(reasonKey('inventory_private')).toBe('reason.inventory_private');
    expect(reasonKey('steam_unavailable')).toBe('reason.steam_unavailable');
    expect(reasonKey('made_up_code')).toBe('reason.other');
    expect(reasonKey(null)).toBe('reason.other');
  });

  it('never lists revoked or sold items', async () => {
    const { filterByTab } = await import('./status');
    const items = [{ status: 'received' }, { status: 'revoked' }, { status: 'sold' }, { status: 'error' }];
    expect(filterByTab(items, 'received')).toEqual([{ status: 'received' }, { status: 'error' }]);
  });
});

describe('itemNames', () => {
  it('takes weapon and finish from their own fields, never from the Steam name', () => {
    expect(itemNames({ name: 'AK-47', variant: 'Красная линия', marketHashName: 'StatTrak™ AK-47 | Redline (Field-Tested)' })).toEqual({
      name: 'AK-47',
      description: 'Красная линия',
    });
    expect(itemNames({ name: 'Karambit', variant: '' })).toEqual({ name: 'Karambit', description: '' });
    expect(itemNames({ name: 'AWP | Asiimov' })).toEqual({ name: 'AWP', description: 'Asiimov' });
  });
});

describe('skinLabel (issue 32, point 6)', () => {
  it('names a skin in the answer’s language, never by the Steam-exact market name', () => {
    const ru = { name: 'M4A4', variant: 'Чоппа', marketHashName: 'StatTrak™ M4A4 | Choppa (Field-Tested)' };
    expect(skinLabel(ru)).toBe('M4A4 | Чоппа');
    expect(skinLabel({ name: 'Керамбит', variant: '', marketHashName: '★ Karambit' })).toBe('Керамбит');
  });
});
