-- One withdrawal, one purchase, whatever the market does (issue 30).
-- An attempt whose outcome we do not know (timeout, dropped answer, 5xx, a crash, an answer we
-- do not understand) is `unknown` from `unknown_since` on. It is looked up again until a look-up
-- made at least MARKET_LOOKUP_WINDOW_SECS after that moment still does not know it (then, and
-- only then, `not_bought`), or the market knows it (`bought`). No new attempt of a withdrawal
-- starts while any of its attempts is `buying` or `unknown`.
ALTER TABLE market_attempts ADD COLUMN unknown_since BIGINT;
ALTER TABLE market_attempts ADD COLUMN looked_up_at BIGINT;
CREATE INDEX market_attempts_open ON market_attempts(withdrawal_id) WHERE outcome IN ('buying', 'unknown');

-- The pace of the market's API key across every process that uses it: the next free request
-- slot, in Unix milliseconds. Each request takes the slot in one conditional write.
CREATE TABLE market_pace (
    name        TEXT    PRIMARY KEY,
    next_at_ms  BIGINT  NOT NULL
);
