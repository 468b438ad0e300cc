-- Automatic delivery: a withdrawal bought on a P2P market for the player (issue #23).
-- `market_state` is NULL for a manual withdrawal (no provider when it was requested). Otherwise:
--   queued -> buying -> bought -> offer_sent -> settling -> settled
--   bounced (back to the player, market_reason = code), reversed (seller reversal: back to the
--   player), player_reversed (nothing back), manual (the admins' queue, market_reason = why).
-- `withdrawals.status` keeps its meaning: pending until delivered (settling: sent) or bounced.
ALTER TABLE withdrawals ADD COLUMN market_state TEXT CHECK (market_state IN
    ('queued', 'buying', 'bought', 'offer_sent', 'settling', 'settled', 'bounced', 'reversed', 'player_reversed', 'manual'));
ALTER TABLE withdrawals ADD COLUMN market_reason TEXT;
ALTER TABLE withdrawals ADD COLUMN custom_id TEXT;              -- the current attempt's id (market_attempts)
ALTER TABLE withdrawals ADD COLUMN attempt BIGINT NOT NULL DEFAULT 0;
ALTER TABLE withdrawals ADD COLUMN market_id TEXT;
ALTER TABLE withdrawals ADD COLUMN trade_id TEXT;
ALTER TABLE withdrawals ADD COLUMN max_price_cents BIGINT;     -- the cap of the current attempt, US cents
ALTER TABLE withdrawals ADD COLUMN price_paid_cents BIGINT;    -- what the market charged, US cents
ALTER TABLE withdrawals ADD COLUMN lease_holder TEXT;           -- the worker working it now
ALTER TABLE withdrawals ADD COLUMN lease_until BIGINT;         -- unix seconds
ALTER TABLE withdrawals ADD COLUMN market_updated_at BIGINT;   -- last progress (stuck detection)
ALTER TABLE withdrawals ADD COLUMN offer_sent_at BIGINT;
ALTER TABLE withdrawals ADD COLUMN delivered_at BIGINT;
ALTER TABLE withdrawals ADD COLUMN settle_until BIGINT;
ALTER TABLE withdrawals ADD COLUMN settled_at BIGINT;
ALTER TABLE withdrawals ADD COLUMN stuck_notified_at BIGINT;
CREATE UNIQUE INDEX withdrawals_custom_id ON withdrawals(custom_id) WHERE custom_id IS NOT NULL;
CREATE INDEX withdrawals_market ON withdrawals(market_state, id) WHERE market_state IS NOT NULL;
CREATE INDEX withdrawals_item ON withdrawals(inventory_item_id, id);

-- Every purchase attempt, written (with its custom id) before `buy-for` leaves the process.
-- `spent_cents` is what the attempt counts against its UTC day's budget: the cap while the
-- answer is unknown, what was paid once known, 0 when nothing was bought.
CREATE TABLE market_attempts (
    custom_id       TEXT    PRIMARY KEY,
    withdrawal_id   BIGINT  NOT NULL REFERENCES withdrawals(id),
    attempt         BIGINT  NOT NULL,
    max_price_cents BIGINT  NOT NULL CHECK (max_price_cents > 0),
    spent_cents     BIGINT  NOT NULL CHECK (spent_cents >= 0),
    day             TEXT    NOT NULL,                      -- 'YYYY-MM-DD', UTC
    outcome         TEXT    NOT NULL,                      -- buying, bought, not_bought
    created_at      BIGINT  NOT NULL,
    UNIQUE (withdrawal_id, attempt)
);

-- What the shop spent on the market per UTC day (the sum of its attempts' spent_cents).
CREATE TABLE market_spend (
    day          TEXT    PRIMARY KEY,
    spent_cents  BIGINT  NOT NULL CHECK (spent_cents >= 0)
);
