-- One outbox (issue "One room per concept", item 1): the players' notices (`notifications`), the
-- ticket forwards to the admins (`admin_outbox`) and the admins' notices (`admin_notices`) become
-- rows of one table, told apart by `channel`, claimed, sent and retried by one code path
-- (`domain/outbox.rs`).
--
-- Every row moves, in each table's own order, with its state: a pending row keeps its attempts and
-- `next_attempt_at` (a retry stays scheduled, a claim keeps its lease), a sent one its message id
-- (a player's reply to support's answer still finds its ticket), a failed one its error.
-- The old tables stay, empty, for one release: a replica of the previous release still running
-- beside this one during a rolling deploy writes into them, and the new release's sender moves
-- what it finds there into `outbox` (`outbox::adopt_legacy`). The next release drops them.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    channel         TEXT    NOT NULL CHECK (channel IN ('player', 'ticket', 'admin')),
    chat_id         INTEGER NOT NULL,                      -- the Telegram chat it goes to
    user_id         INTEGER REFERENCES users(id),          -- channel 'player': the player (= chat_id)
    ticket_id       INTEGER REFERENCES tickets(id),        -- channel 'ticket': the ticket forwarded
    kind            TEXT    NOT NULL,                      -- a player notice's kind; 'ticket_forward', 'admin_notice'
    payload         TEXT    NOT NULL,                      -- 'player': the notice as JSON; else the text as sent
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER,
    message_id      INTEGER,                               -- the chat message it was delivered as
    CHECK (channel <> 'player' OR user_id = chat_id),
    CHECK (channel <> 'ticket' OR ticket_id IS NOT NULL)
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX outbox_message ON outbox(chat_id, message_id);
CREATE INDEX outbox_ticket ON outbox(ticket_id, chat_id) WHERE ticket_id IS NOT NULL;

INSERT INTO outbox(channel, chat_id, user_id, ticket_id, kind, payload, status, attempts, next_attempt_at, last_error,
                   created_at, sent_at, message_id)
SELECT 'player', user_id, user_id, NULL, kind, payload, status, attempts, next_attempt_at, last_error,
       created_at, sent_at, message_id
FROM notifications ORDER BY id;
DELETE FROM notifications;

INSERT INTO outbox(channel, chat_id, user_id, ticket_id, kind, payload, status, attempts, next_attempt_at, last_error,
                   created_at, sent_at, message_id)
SELECT 'ticket', admin_chat_id, NULL, ticket_id, 'ticket_forward', body, status, attempts, next_attempt_at, last_error,
       created_at, sent_at, NULL
FROM admin_outbox ORDER BY id;
DELETE FROM admin_outbox;

INSERT INTO outbox(channel, chat_id, user_id, ticket_id, kind, payload, status, attempts, next_attempt_at, last_error,
                   created_at, sent_at, message_id)
SELECT 'admin', admin_chat_id, NULL, NULL, 'admin_notice', body, status, attempts, next_attempt_at, last_error,
       created_at, sent_at, NULL
FROM admin_notices ORDER BY id;
DELETE FROM admin_notices;
