-- FragBox schema. Money columns are INTEGER hundredths of a token; Stars are whole numbers.
-- Timestamps are INTEGER unix seconds (UTC); days are TEXT 'YYYY-MM-DD' (UTC).

CREATE TABLE users (
    id              INTEGER PRIMARY KEY,             -- Telegram user id
    first_name      TEXT    NOT NULL DEFAULT '',
    last_name       TEXT    NOT NULL DEFAULT '',
    username        TEXT,
    language_code   TEXT,                            -- from Telegram
    language        TEXT,                            -- chosen in the mini app or the bot (ru|en)
    photo_url       TEXT,
    balance         INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    ref_code        TEXT    NOT NULL UNIQUE,
    referred_by     INTEGER REFERENCES users(id),
    referred_at     INTEGER,
    tg_subscribed   INTEGER NOT NULL DEFAULT 0,
    first_case_at   INTEGER,
    trade_url       TEXT,
    agreed_at       INTEGER,
    is_demo         INTEGER NOT NULL DEFAULT 0,
    bot_blocked     INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    CHECK (referred_by IS NULL OR referred_by <> id)
);
CREATE INDEX users_referred_by ON users(referred_by, referred_at);

CREATE TABLE sessions (
    token_hash  TEXT    PRIMARY KEY,                 -- hex SHA-256 of the bearer token
    user_id     INTEGER NOT NULL REFERENCES users(id),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    revoked_at  INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Append-only: every change of users.balance is one row here, written in the same transaction.
CREATE TABLE ledger_entries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    amount          INTEGER NOT NULL CHECK (amount <> 0),
    balance_after   INTEGER NOT NULL CHECK (balance_after >= 0),
    reason          TEXT    NOT NULL,
    idempotency_key TEXT    NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL
);
CREATE INDEX ledger_user ON ledger_entries(user_id, id);
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO settings(key, value) VALUES ('maintenance', 'off');

-- Catalog copy (the files in data/catalog are the source; upserted at start).
CREATE TABLE catalog_items (
    id               TEXT    PRIMARY KEY,
    weapon           TEXT    NOT NULL,
    finish           TEXT    NOT NULL,
    rarity           TEXT    NOT NULL,
    condition        TEXT    NOT NULL,
    image            TEXT    NOT NULL,
    token_price      INTEGER NOT NULL CHECK (token_price > 0)
);
CREATE TABLE cases (
    id        TEXT    PRIMARY KEY,
    name      TEXT    NOT NULL,
    image     TEXT    NOT NULL,
    price     INTEGER NOT NULL CHECK (price > 0),
    position  INTEGER NOT NULL,
    active    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE packages (
    id        TEXT    PRIMARY KEY,
    tokens    INTEGER NOT NULL CHECK (tokens > 0),
    bonus     INTEGER NOT NULL CHECK (bonus >= 0),
    stars     INTEGER NOT NULL CHECK (stars > 0),
    position  INTEGER NOT NULL,
    active    INTEGER NOT NULL DEFAULT 1
);

-- Provably fair seeds: one active (revealed_at IS NULL) per user.
CREATE TABLE fair_seeds (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL REFERENCES users(id),
    server_seed       TEXT    NOT NULL,
    server_seed_hash  TEXT    NOT NULL,
    client_seed       TEXT    NOT NULL,
    next_nonce        INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    revealed_at       INTEGER
);
CREATE UNIQUE INDEX fair_seeds_active ON fair_seeds(user_id) WHERE revealed_at IS NULL;

CREATE TABLE case_opens (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL REFERENCES users(id),
    case_id           TEXT    NOT NULL,
    request_id        TEXT,
    seed_id           INTEGER NOT NULL REFERENCES fair_seeds(id),
    server_seed_hash  TEXT    NOT NULL,
    client_seed       TEXT    NOT NULL,
    nonce             INTEGER NOT NULL,
    roll              INTEGER NOT NULL,
    total_weight      INTEGER NOT NULL,
    weights           TEXT    NOT NULL,              -- JSON [[item id, weight], ...] in draw order
    item_id           TEXT    NOT NULL,
    price             INTEGER NOT NULL,
    response          TEXT    NOT NULL,              -- the JSON answer, replayed for a repeated request id
    created_at        INTEGER NOT NULL,
    UNIQUE (user_id, request_id)
);
CREATE INDEX case_opens_user ON case_opens(user_id, id);

CREATE TABLE inventory_items (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL REFERENCES users(id),
    open_id           INTEGER REFERENCES case_opens(id),
    catalog_item_id   TEXT    NOT NULL,
    case_id           TEXT,
    weapon            TEXT    NOT NULL,
    finish            TEXT    NOT NULL,
    rarity            TEXT    NOT NULL,
    condition         TEXT    NOT NULL,
    image             TEXT    NOT NULL,
    token_price       INTEGER NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'received'
                      CHECK (status IN ('received', 'pending', 'sent', 'error', 'sold')),
    status_reason     TEXT,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
CREATE INDEX inventory_user ON inventory_items(user_id, status, id);

CREATE TABLE sales (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL REFERENCES users(id),
    inventory_item_id INTEGER NOT NULL UNIQUE REFERENCES inventory_items(id),
    amount            INTEGER NOT NULL,
    created_at        INTEGER NOT NULL
);

CREATE TABLE withdrawals (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL REFERENCES users(id),
    inventory_item_id INTEGER NOT NULL REFERENCES inventory_items(id),
    trade_url         TEXT    NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'error')),
    reason            TEXT,
    resolved_by       INTEGER,
    created_at        INTEGER NOT NULL,
    resolved_at       INTEGER
);
CREATE UNIQUE INDEX withdrawals_one_pending ON withdrawals(inventory_item_id) WHERE status = 'pending';

-- Outbox of chat messages to players; the bot drains it.
CREATE TABLE notifications (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,                -- JSON
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX notifications_due ON notifications(status, next_attempt_at);

CREATE TABLE daily_claims (
    user_id     INTEGER NOT NULL REFERENCES users(id),
    day         TEXT    NOT NULL,
    streak_day  INTEGER NOT NULL CHECK (streak_day BETWEEN 1 AND 7),
    cycle_start TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);

CREATE TABLE payments (
    id                  TEXT    PRIMARY KEY,         -- transaction id, 32 hex
    user_id             INTEGER NOT NULL REFERENCES users(id),
    pack_id             TEXT    NOT NULL,
    stars               INTEGER NOT NULL,
    tokens              INTEGER NOT NULL,            -- hundredths, tokens + bonus
    currency            TEXT    NOT NULL DEFAULT 'XTR',
    status              TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'success', 'failed', 'refunded')),
    invoice_link        TEXT,
    charge_id           TEXT    UNIQUE,
    provider_charge_id  TEXT,
    created_at          INTEGER NOT NULL,
    paid_at             INTEGER,
    refunded_at         INTEGER
);
CREATE INDEX payments_user ON payments(user_id, created_at);

-- Payments Telegram reported that match no pending transaction: kept for an admin.
CREATE TABLE orphan_payments (
    charge_id   TEXT    PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    payload     TEXT    NOT NULL,
    stars       INTEGER NOT NULL,
    currency    TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE tickets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    theme       TEXT    NOT NULL CHECK (theme IN ('payment', 'withdraw', 'bug', 'other')),
    title       TEXT,
    item_id     INTEGER REFERENCES inventory_items(id),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    closed_at   INTEGER
);
CREATE INDEX tickets_user ON tickets(user_id, id);
CREATE INDEX tickets_status ON tickets(status, id);

CREATE TABLE ticket_messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_id   INTEGER NOT NULL REFERENCES tickets(id),
    sender      TEXT    NOT NULL CHECK (sender IN ('user', 'support')),
    admin_id    INTEGER,
    message     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX ticket_messages_ticket ON ticket_messages(ticket_id, id);

-- Which admin chat message forwards which ticket, so a reply to it answers the ticket.
CREATE TABLE ticket_forwards (
    admin_chat_id INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    ticket_id     INTEGER NOT NULL REFERENCES tickets(id),
    PRIMARY KEY (admin_chat_id, message_id)
);

CREATE TABLE admin_audit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    admin_id    INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    detail      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);
