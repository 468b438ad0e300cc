-- Ticket forwards to the admins' chats, queued in the ticket's own transaction so none is lost
-- while Telegram is down; the bot drains it like the players' outbox.
CREATE TABLE admin_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    admin_chat_id   INTEGER NOT NULL,
    ticket_id       INTEGER NOT NULL REFERENCES tickets(id),
    body            TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX admin_outbox_due ON admin_outbox(status, next_attempt_at);
