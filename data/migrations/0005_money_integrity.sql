-- Money integrity: refunds that claw back value, debts, revoked items, withdrawal failure codes.
-- Runs with foreign keys off (the migrator turns them off around every file and checks them
-- before commit), so inventory_items can be rebuilt with the new status in its CHECK.

-- What a player still owes after a refund found the balance and the skins short. Repaid first
-- from every later credit (ledger.rs does it inside the posting). `debt` is a cache of the sum of
-- the user's debt_entries, as `balance` is of the ledger.
ALTER TABLE users ADD COLUMN debt INTEGER NOT NULL DEFAULT 0 CHECK (debt >= 0);

-- Append-only: + opened by a refund, - repaid by a credit (the repayment is also a ledger entry
-- under the same idempotency key).
CREATE TABLE debt_entries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    amount          INTEGER NOT NULL CHECK (amount <> 0),
    debt_after      INTEGER NOT NULL CHECK (debt_after >= 0),
    reason          TEXT    NOT NULL,
    idempotency_key TEXT    NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL
);
CREATE INDEX debt_entries_user ON debt_entries(user_id, id);
CREATE TRIGGER debt_entries_no_update BEFORE UPDATE ON debt_entries
BEGIN SELECT RAISE(ABORT, 'debt_entries is append-only'); END;
CREATE TRIGGER debt_entries_no_delete BEFORE DELETE ON debt_entries
BEGIN SELECT RAISE(ABORT, 'debt_entries is append-only'); END;

-- inventory_items gains status 'revoked' and a machine code for a failed withdrawal.
CREATE TABLE inventory_items_new (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id            INTEGER NOT NULL REFERENCES users(id),
    open_id            INTEGER REFERENCES case_opens(id),
    catalog_item_id    TEXT    NOT NULL,
    case_id            TEXT,
    weapon             TEXT    NOT NULL,
    finish             TEXT    NOT NULL,
    rarity             TEXT    NOT NULL,
    condition          TEXT    NOT NULL,
    image              TEXT    NOT NULL,
    token_price        INTEGER NOT NULL,
    status             TEXT    NOT NULL DEFAULT 'received'
                       CHECK (status IN ('received', 'pending', 'sent', 'error', 'sold', 'revoked')),
    status_reason      TEXT,
    status_reason_code TEXT,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
INSERT INTO inventory_items_new(id, user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                token_price, status, status_reason, status_reason_code, created_at, updated_at)
SELECT id, user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
       token_price, status, status_reason, CASE WHEN status = 'error' THEN 'other' END, created_at, updated_at
FROM inventory_items;
DROP TABLE inventory_items;
ALTER TABLE inventory_items_new RENAME TO inventory_items;
CREATE INDEX inventory_user ON inventory_items(user_id, status, id);

ALTER TABLE withdrawals ADD COLUMN reason_code TEXT;
UPDATE withdrawals SET reason_code = 'other' WHERE status = 'error';

-- One row per refund settled under these rules: how the purchase's tokens came back.
-- taken (from the balance) + revoked (skins, at token price) + debt >= the purchase's tokens
-- (revoked skins count whole: the last one may be worth more than what was still owed).
CREATE TABLE refund_settlements (
    payment_id  TEXT    PRIMARY KEY REFERENCES payments(id),
    user_id     INTEGER NOT NULL REFERENCES users(id),
    tokens      INTEGER NOT NULL,
    taken       INTEGER NOT NULL CHECK (taken >= 0),
    revoked     INTEGER NOT NULL CHECK (revoked >= 0),
    debt        INTEGER NOT NULL CHECK (debt >= 0),
    created_at  INTEGER NOT NULL
);

-- Each skin a refund took back, at the token price it counted for.
CREATE TABLE item_revocations (
    inventory_item_id INTEGER PRIMARY KEY REFERENCES inventory_items(id),
    user_id           INTEGER NOT NULL REFERENCES users(id),
    payment_id        TEXT    NOT NULL REFERENCES payments(id),
    value             INTEGER NOT NULL CHECK (value > 0),
    created_at        INTEGER NOT NULL
);
CREATE INDEX item_revocations_payment ON item_revocations(payment_id);
