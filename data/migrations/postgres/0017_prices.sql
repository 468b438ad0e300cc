-- Prices that cannot be poisoned (issue 31).
-- A history row an operator accepted (`fragbox catalog accept`, `reprice --accept`): the reprice
-- measures a move against the last accepted price of the last 7 days, else against the price in
-- effect 7 days ago (the committed default when there was none).
ALTER TABLE catalog_price_history ADD COLUMN accepted BIGINT NOT NULL DEFAULT 0;    -- 0/1
CREATE INDEX catalog_price_history_at ON catalog_price_history(created_at);

-- Price changes a reprice held: one row per variant, the latest quote; gone when applied,
-- accepted, or when the market comes back to the price the shop has.
CREATE TABLE catalog_held (
    variant          TEXT    PRIMARY KEY,                 -- 'ak47-redline:st:ft'
    market_hash_name TEXT    NOT NULL,
    reason           TEXT    NOT NULL CHECK (reason IN ('jump', 'cross_check', 'bounds')),
    from_price       BIGINT  NOT NULL,                    -- hundredths of a token: the price that stays
    to_price         BIGINT,                              -- hundredths of a token; NULL when the quote does not fit
    to_cents         BIGINT  NOT NULL,                    -- the quote, US cents
    cross_cents      BIGINT,                              -- the cross-check's quote, US cents
    source           TEXT    NOT NULL,                    -- 'skinport', 'marketcsgo'
    held_at          BIGINT  NOT NULL,                    -- unix seconds: first held
    updated_at       BIGINT  NOT NULL,                    -- unix seconds: last quoted
    reported_at      BIGINT  NOT NULL                     -- unix seconds: last told to the admins
);

-- Cases taken off sale, by an operator (`fragbox catalog off`) or by the price rules (a stored
-- price the shop cannot use). The start-up catalog load keeps them off; only `catalog on` ends it.
CREATE TABLE cases_off_sale (
    case_id  TEXT    PRIMARY KEY,
    reason   TEXT    NOT NULL CHECK (reason IN ('operator', 'price')),
    detail   TEXT    NOT NULL DEFAULT '',
    since    BIGINT  NOT NULL                             -- unix seconds
);
