/**
 * Server-Sent Events, read from a streamed `fetch` body (EventSource cannot send the Bearer
 * header). Follows the format's rules: lines end in LF, CRLF or CR; a line starting with `:` is a
 * comment (the server's heartbeat); `data:` lines of one event join with LF; `id:` sets the last
 * event id (kept across events, sent back as `Last-Event-ID`); a blank line dispatches the event;
 * one space after the colon is dropped. Bytes arrive in arbitrary chunks: a chunk may end in the
 * middle of a line or of a UTF-8 character.
 */

export interface SseEvent {
  /** The last event id at dispatch (this event's `id:`, or the previous one). */
  id: string;
  event: string;
  data: string;
}

export interface SseParser {
  /** Feeds bytes (or already decoded text) as they arrive. */
  push(chunk: Uint8Array | string): void;
  /** The last event id seen so far ('' before any). */
  readonly lastEventId: string;
}

export function createSseParser(onEvent: (e: SseEvent) => void, onComment?: (text: string) => void): SseParser {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let lastEventId = '';
  let data: string[] = [];
  let event = '';
  // A chunk ending in CR may be the first half of CRLF: the LF that follows ends nothing.
  let skipLf = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ id: lastEventId, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) {
      onComment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    } else if (field === 'event') event = value;
    // `retry` and unknown fields: the client keeps its own back-off.
  };

  return {
    push(chunk) {
      buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const c = buffer.charCodeAt(i);
        if (c === 10 && skipLf && i === start) {
          skipLf = false;
          start = i + 1;
          continue;
        }
        skipLf = false;
        if (c === 10 || c === 13) {
          line(buffer.slice(start, i));
          if (c === 13) {
            if (i + 1 < buffer.length) {
              if (buffer.charCodeAt(i + 1) === 10) i += 1;
            } else skipLf = true;
          }
          start = i + 1;
        }
      }
      buffer = buffer.slice(start);
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
