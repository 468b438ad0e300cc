import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useParams } from '../../lib/router';

import { Button, toast } from '../../components/ui';
import { type ChatMessage, chatRows, clampInputHeight, closeTicket, type DayLabel, ensureSupportTexts, fetchMessages, fetchTicket, sendMessage, type Ticket } from '../../features/support';
import { useT, type TFunction } from '../../i18n';
import { confirmPopup } from '../../lib/native-ui';
import { haptic } from '../../lib/telegram';
import styles from './ticket.module.css';

// This screen's texts load with it, not in the start-up bundle.
ensureSupportTexts();

/** New support replies show up without a reload while the chat is open. */
const POLL_MS = 15_000;

function dayText(label: DayLabel, t: TFunction): string {
  if (label.kind === 'today') return t('ticket.today');
  if (label.kind === 'yesterday') return t('ticket.yesterday');
  return label.text;
}

/** `/support/ticket/{id}`: the chat with support. */
export function TicketPage() {
  const t = useT();
  const { ticketId = '' } = useParams();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [closing, setClosing] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const firstScroll = useRef(true);

  const load = useCallback(
    async (quiet = false) => {
      try {
        const [tk, ms] = await Promise.all([fetchTicket(ticketId), fetchMessages(ticketId)]);
        setTicket(tk);
        setMessages(ms);
      } catch {
        if (!quiet) toast.error(t('ticket.loadError'));
        setMessages((m) => m ?? []);
      }
    },
    [ticketId, t],
  );

  useEffect(() => {
    void load();
    const id = setInterval(() => void load(true), POLL_MS);
    return () => clearInterval(id);
  }, [load]);

  // Smooth scroll to the newest message (instant on the first paint).
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || !messages) return;
    el.scrollTo({ top: el.scrollHeight, behavior: firstScroll.current ? 'auto' : 'smooth' });
    firstScroll.current = false;
  }, [messages]);

  // The input grows with its content between 32 and 120 px.
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = '0px';
    el.style.height = `${clampInputHeight(el.scrollHeight)}px`;
  }, [text]);

  const rows = useMemo(() => chatRows(messages ?? [], new Date()), [messages]);
  const closed = ticket?.status === 'closed';

  const send = async () => {
    const message = text.trim();
    if (!message || sending || closed) return;
    setSending(true);
    try {
      await sendMessage(ticketId, message);
      setText('');
      await load(true);
    } catch {
      haptic.error();
      toast.error(t('ticket.sendError'));
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const close = async () => {
    if (closing) return;
    const sure = await confirmPopup({ message: t('ticket.closeConfirm'), ok: t('ticket.closeOk'), cancel: t('common.cancel'), destructive: true });
    if (!sure) return;
    setClosing(true);
    try {
      await closeTicket(ticketId);
      haptic.success();
      toast.success(t('ticket.closed'));
      await load(true);
    } catch {
      toast.error(t('ticket.closeError'));
    } finally {
      setClosing(false);
    }
  };

  const title = ticket ? ticket.title || t(`theme.${ticket.theme}`) : t('ticket.titleFallback', { id: ticketId });
  return (
    <main className={styles.page} data-testid="page-ticket" data-status={ticket?.status}>
      <header className={styles.header}>
        <div className={styles.headText}>
          <h1 className={styles.title}>{title}</h1>
          <span className={styles.subtitle}>{t('ticket.subtitle')}</span>
        </div>
        {ticket && (
          <span className={`${styles.badge} ${closed ? '' : styles.badgeOpen}`} data-testid="ticket-status">
            {closed ? t('support.closed') : t('support.open')}
          </span>
        )}
        {ticket && !closed && (
          <Button size="sm" variant="secondary" onClick={close} loading={closing} data-testid="close-ticket">
            {t('ticket.close')}
          </Button>
        )}
      </header>

      <div className={styles.messages} ref={listRef} data-testid="chat">
        {messages === null && <p className={styles.hint}>{t('common.loading')}</p>}
        {messages !== null && messages.length === 0 && <p className={styles.hint}>{t('ticket.empty')}</p>}
        {rows.map((r) =>
          r.kind === 'day' ? (
            <div key={r.key} className={styles.day} data-testid="day-separator">
              <span>{dayText(r.label, t)}</span>
            </div>
          ) : (
            <div key={r.key} className={`${styles.bubble} ${r.mine ? styles.mine : styles.theirs}`} data-testid={r.mine ? 'msg-user' : 'msg-support'}>
              <span className={styles.text}>{r.text}</span>
              <span className={styles.time}>{r.time}</span>
            </div>
          ),
        )}
      </div>

      {closed ? (
        <p className={styles.closedNote} data-testid="ticket-closed-note">{t('ticket.closedNote')}</p>
      ) : null}
      <div className={styles.composer}>
        <textarea
          ref={inputRef}
          className={styles.input}
          rows={1}
          value={text}
          placeholder={t('ticket.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={sending || closed}
          data-testid="chat-input"
        />
        <button
          type="button"
          className={styles.send}
          onClick={() => void send()}
          disabled={sending || closed || !text.trim()}
          aria-label={t('ticket.send')}
          data-testid="chat-send"
        >
          <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden>
            <path d="M3.4 20.4l17.45-7.48a1 1 0 0 0 0-1.84L3.4 3.6a.99.99 0 0 0-1.38.91L2 9.12c0 .5.37.93.87.99L17 12 2.87 13.88c-.5.07-.87.5-.87 1l.01 4.61c0 .71.73 1.2 1.39.91z" />
          </svg>
        </button>
      </div>
    </main>
  );
}
