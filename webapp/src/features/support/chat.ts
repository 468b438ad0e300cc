/**
 * Chat rows: messages in order with a day separator before the first message
 * of each local calendar day (today, yesterday, else a ru-RU date) and an
 * HH:MM time on each bubble.
 */
import type { components } from '../../lib/api-types.gen';

/** A message of `GET /support/tickets/{id}/messages` (`sender`: `user` or `admin`). */
export type ChatMessage = components['schemas']['Message'];

export type DayLabel = { kind: 'today' } | { kind: 'yesterday' } | { kind: 'date'; text: string };

export type ChatRow =
  | { kind: 'day'; key: string; label: DayLabel }
  | { kind: 'message'; key: string; mine: boolean; text: string; time: string };

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

export function dayLabel(day: Date, now: Date): DayLabel {
  if (dayKey(day) === dayKey(now)) return { kind: 'today' };
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (dayKey(day) === dayKey(yesterday)) return { kind: 'yesterday' };
  return {
    kind: 'date',
    text: day.toLocaleDateString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' }),
  };
}

/** HH:MM in the device's time zone. */
export function timeOf(d: Date): string {
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function chatRows(messages: readonly ChatMessage[], now: Date): ChatRow[] {
  const rows: ChatRow[] = [];
  let lastDay = '';
  for (const m of messages) {
    const at = new Date(m.created_at);
    const valid = !Number.isNaN(at.getTime());
    const key = valid ? dayKey(at) : lastDay;
    if (valid && key !== lastDay) {
      rows.push({ kind: 'day', key: `day-${key}`, label: dayLabel(at, now) });
      lastDay = key;
    }
    rows.push({
      kind: 'message',
      key: `m-${m.id}`,
      mine: m.sender === 'user',
      text: m.message,
      time: valid ? timeOf(at) : '',
    });
  }
  return rows;
}

/** Height of the growing chat input: its content height within 32..120 px. */
export function clampInputHeight(scrollHeight: number): number {
  return Math.min(120, Math.max(32, scrollHeight));
}
