import { describe, expect, it } from 'vitest';
import { chatRows, clampInputHeight, type ChatMessage } from './chat';

const at = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo, d, h, mi).toISOString();
const msg = (id: number, created_at: string, sender = 'user'): ChatMessage => ({ id, sender, message: `m${id}`, created_at });

describe('chat rows', () => {
  const now = new Date(2026, 10, 22, 18, 0);

  it('puts one separator before each day: a date, yesterday, today', () => {
    const rows = chatRows(
      [
        msg(1, at(2026, 10, 19, 9, 5)),
        msg(2, at(2026, 10, 19, 9, 6), 'support'),
        msg(3, at(2026, 10, 21, 23, 59)),
        msg(4, at(2026, 10, 22, 0, 1)),
        msg(5, at(2026, 10, 22, 7, 30), 'support'),
      ],
      now,
    );
    expect(rows.map((r) => (r.kind === 'day' ? r.label.kind : r.key))).toEqual([
      'date', 'm-1', 'm-2', 'yesterday', 'm-3', 'today', 'm-4', 'm-5',
    ]);
    const first = rows[0]!;
    expect(first.kind === 'day' && first.label.kind === 'date' && first.label.text).toBe('19 ноября 2026 г.');
  });

  it('shows HH:MM and who wrote each bubble', () => {
    const rows = chatRows([msg(1, at(2026, 10, 22, 7, 5)), msg(2, at(2026, 10, 22, 17, 45), 'support')], now);
    const bubbles = rows.filter((r) => r.kind === 'message');
    expect(bubbles.map((b) => b.kind === 'message' && [b.time, b.mine])).toEqual([
      ['07:05', true],
      ['17:45', false],
    ]);
  });

  it('is empty for no messages', () => {
    expect(chatRows([], now)).toEqual([]);
  });
});

describe('chat input', () => {
  it('grows from 32 to 120 px', () => {
    expect(clampInputHeight(10)).toBe(32);
    expect(clampInputHeight(64)).toBe(64);
    expect(clampInputHeight(400)).toBe(120);
  });
});
