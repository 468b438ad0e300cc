-- Messages to the admins that belong to no ticket (a reprice that held a price jump), queued in
-- the write that causes them so none is lost while Telegram is down; the bot drains it like the
-- ticket forwards of admin_outbox, one row per admin chat.
CREATE TABLE admin_notices (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    admin_chat_id   INTEGER NOT NULL,
    body            TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX admin_notices_due ON admin_notices(status, next_attempt_at);
