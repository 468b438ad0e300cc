-- Promo codes (issue #24 point 2) and responsible play (point 5).

-- A code is stored normalised (upper case), so matching is case-insensitive. `uses` counts the
-- redemptions; the one conditional UPDATE ... WHERE uses < max_uses in a redemption's write keeps
-- it within `max_uses` on every replica. A disabled code answers as not found.
CREATE TABLE promo_codes (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    code          TEXT    NOT NULL UNIQUE,
    tokens        INTEGER NOT NULL CHECK (tokens > 0),
    max_uses      INTEGER NOT NULL CHECK (max_uses > 0),
    uses          INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    expires_at    INTEGER,
    deposit_only  INTEGER NOT NULL DEFAULT 0,
    disabled_at   INTEGER,
    created_by    INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
);

-- One row per player and code: the primary key is what makes "once per player" hold.
-- The credit is the ledger entry `promo:{promo_id}:{user_id}` (reason `promo`, bonus).
CREATE TABLE promo_redemptions (
    promo_id    INTEGER NOT NULL REFERENCES promo_codes(id),
    user_id     INTEGER NOT NULL REFERENCES users(id),
    tokens      INTEGER NOT NULL CHECK (tokens > 0),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (promo_id, user_id)
);

-- When the player confirmed they are 18 or older (beside the terms' `agreed_at`).
ALTER TABLE users ADD COLUMN adult_confirmed_at INTEGER;

-- A player's own limits, one row once they set any. Self-exclusion: running while
-- `excluded_permanent = 1` or `excluded_until > now`. Daily spend limit (tokens per UTC day):
-- `daily_limit` is in force; a raise or a removal waits in `pending_limit` (NULL = no limit)
-- until `pending_at`, and is folded in by the next write.
CREATE TABLE responsible_play (
    user_id             INTEGER PRIMARY KEY REFERENCES users(id),
    excluded_at         INTEGER,
    excluded_until      INTEGER,
    excluded_permanent  INTEGER NOT NULL DEFAULT 0,
    daily_limit         INTEGER CHECK (daily_limit IS NULL OR daily_limit > 0),
    pending_limit       INTEGER CHECK (pending_limit IS NULL OR pending_limit > 0),
    pending_at          INTEGER,
    updated_at          INTEGER NOT NULL
);
