import { describe, expect, it } from 'vitest';
import { changeTheme, chooseItem, emptyForm, validate } from './ticket-form';

const template = (name: string, id: number) => `Problem with ${name} (${id})`;

describe('create-ticket form', () => {
  it('clears the item on a topic change and the message on a non-withdraw topic', () => {
    const withItem = chooseItem(changeTheme(emptyForm(), 'withdraw'), { id: 5, name: 'AK-47 | Redline' }, template);
    expect(withItem).toEqual({ theme: 'withdraw', itemId: 5, message: 'Problem with AK-47 | Redline (5)' });
    expect(changeTheme(withItem, 'bug')).toEqual({ theme: 'bug', itemId: null, message: '' });
    expect(changeTheme({ ...withItem, theme: 'withdraw' }, 'withdraw').itemId).toBeNull();
  });

  it('needs an item for withdraw and a non-blank message for all', () => {
    expect(validate({ theme: 'withdraw', itemId: null, message: 'x' })).toBe('itemRequired');
    expect(validate({ theme: 'bug', itemId: null, message: '   ' })).toBe('messageRequired');
    expect(validate({ theme: 'withdraw', itemId: 1, message: 'hi' })).toBeNull();
  });
});
