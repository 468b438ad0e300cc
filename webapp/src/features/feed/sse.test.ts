import { describe, expect, it } from 'vitest';

import { createSseParser, type SseEvent } from './sse';

function parse(chunks: Array<string | Uint8Array>) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const parser = createSseParser(
    (e) => events.push(e),
    (c) => comments.push(c),
  );
  for (const c of chunks) parser.push(c);
  return { events, comments, parser };
}

describe('the SSE parser', () => {
  it('reads an event with its id and data', () => {
    const { events, parser } = parse(['id: 41\ndata: {"id":41}\n\n']);
    expect(events).toEqual([{ id: '41', event: 'message', data: '{"id":41}' }]);
    expect(parser.lastEventId).toBe('41');
  });

  it('joins the data lines of one event and drops one space after the colon only', () => {
    const { events } = parse(['data:a\ndata:  b\n\n']);
    expect(events[0].data).toBe('a\n b');
  });

  it('treats comment lines as heartbeats, not events', () => {
    const { events, comments } = parse([':\n\n', ': keep-alive\n\n', 'id: 3\ndata: x\n\n']);
    expect(events.map((e) => e.data)).toEqual(['x']);
    expect(comments).toEqual(['', 'keep-alive']);
  });

  it('waits for the rest of a line split across chunks', () => {
    const { events } = parse(['id: 12\nda', 'ta: {"na', 'me":"AK"}', '\n', '\n']);
    expect(events).toEqual([{ id: '12', event: 'message', data: '{"name":"AK"}' }]);
  });

  it('decodes a UTF-8 character split between chunks', () => {
    const bytes = new TextEncoder().encode('id: 5\ndata: {"name":"Аквамариновая месть"}\n\n');
    // Cut inside the two bytes of "А".
    const cut = bytes.indexOf(0xd0);
    const { events } = parse([bytes.slice(0, cut + 1), bytes.slice(cut + 1)]);
    expect(JSON.parse(events[0].data)).toEqual({ name: 'Аквамариновая месть' });
  });

  it('accepts CRLF and CR line ends, a CRLF split between chunks included', () => {
    const { events } = parse(['id: 1\r\ndata: a\r', '\n\r\n', 'id: 2\rdata: b\r\r']);
    expect(events.map((e) => [e.id, e.data])).toEqual([
      ['1', 'a'],
      ['2', 'b'],
    ]);
  });

  it('keeps the last id for events without one, and dispatches nothing without data', () => {
    const { events, parser } = parse(['id: 7\n\n', 'data: later\n\n', 'id: 9\n\n']);
    expect(events).toEqual([{ id: '7', event: 'message', data: 'later' }]);
    expect(parser.lastEventId).toBe('9');
  });

  it('does not dispatch an event whose blank line has not come yet', () => {
    const { events } = parse(['id: 1\ndata: a\n']);
    expect(events).toEqual([]);
  });
});
