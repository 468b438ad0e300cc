-- Only paid value leaves. Tokens bought with Stars (and what selling a skin won with them pays)
-- are paid; tokens from rewards, referrals, promo codes, grants and demo mode are bonus. The
-- balance stays the total; `bonus_balance` is its bonus part, as `balance` is a cache of the
-- ledger: bonus_balance = bonus_opening + sum(ledger_entries.bonus_amount).
ALTER TABLE users ADD COLUMN bonus_balance BIGINT NOT NULL DEFAULT 0 CHECK (bonus_balance >= 0);
-- The bonus part of the balance when this migration ran (the ledger before it has no split).
ALTER TABLE users ADD COLUMN bonus_opening BIGINT NOT NULL DEFAULT 0 CHECK (bonus_opening >= 0);
-- The bonus part of an entry's amount (same sign; 0 for a paid entry and for entries before this).
ALTER TABLE ledger_entries ADD COLUMN bonus_amount BIGINT NOT NULL DEFAULT 0;
-- The bonus tokens an item's open spent (0: won with paid tokens only, withdrawable).
ALTER TABLE inventory_items ADD COLUMN bonus_cost BIGINT NOT NULL DEFAULT 0 CHECK (bonus_cost >= 0);
-- When the owner shared the skin: its public card shows it only after that.
ALTER TABLE inventory_items ADD COLUMN shared_at BIGINT;

-- Existing balances: what standing purchases cannot cover was never paid for, so it is bonus.
UPDATE users SET bonus_balance = balance - LEAST(balance,
    (SELECT COALESCE(SUM(p.tokens), 0) FROM payments p WHERE p.user_id = users.id AND p.status = 'success'));
UPDATE users SET bonus_opening = bonus_balance;

-- Existing skins: a player's opens, oldest first, count as paid while their running cost stays
-- within the tokens of the player's standing purchases; every later open was bonus.
UPDATE inventory_items SET bonus_cost = (SELECT o.price FROM case_opens o WHERE o.id = inventory_items.open_id)
WHERE open_id IS NOT NULL
  AND (SELECT COALESCE(SUM(o2.price), 0) FROM inventory_items i2 JOIN case_opens o2 ON o2.id = i2.open_id
       WHERE i2.user_id = inventory_items.user_id AND i2.id <= inventory_items.id)
    > (SELECT COALESCE(SUM(p.tokens), 0) FROM payments p WHERE p.user_id = inventory_items.user_id AND p.status = 'success');

-- A refund without `force` holds the purchase's tokens (a ledger debit) before Telegram is asked;
-- the hold is released (credited back) if Telegram refuses, or used as what the refund took.
CREATE TABLE refund_holds (
    charge_id   TEXT    NOT NULL,
    attempt     BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL REFERENCES users(id),
    amount      BIGINT  NOT NULL CHECK (amount > 0),
    bonus       BIGINT  NOT NULL CHECK (bonus >= 0),
    state       TEXT    NOT NULL CHECK (state IN ('held', 'released', 'used')),
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (charge_id, attempt)
);
CREATE UNIQUE INDEX refund_holds_one_held ON refund_holds(charge_id) WHERE state = 'held';
