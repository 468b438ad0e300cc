-- Real CS2 goods: a dropped item is an instance of a skin variant (float, exterior, StatTrak™,
-- Steam market name). Rows from before stay valid: the new columns are empty for them
-- (stat_trak 0), and readers fall back to `condition` and `weapon | finish`.
ALTER TABLE inventory_items ADD COLUMN float REAL;                            -- null: vanilla knife or an old row
ALTER TABLE inventory_items ADD COLUMN exterior TEXT;                         -- Steam name: 'Field-Tested'; null as above
ALTER TABLE inventory_items ADD COLUMN stat_trak INTEGER NOT NULL DEFAULT 0;  -- 0/1
ALTER TABLE inventory_items ADD COLUMN market_hash_name TEXT;                 -- 'StatTrak™ AK-47 | Redline (Field-Tested)'

-- Market prices of variants, set by a reprice. A variant without a row keeps the committed default
-- of data/catalog/prices.json; the start-up catalog upsert never writes here.
CREATE TABLE catalog_prices (
    variant     TEXT    PRIMARY KEY,                  -- '{item id}[:st][:fn|mw|ft|ww|bs]': 'ak47-redline:st:ft'
    price       INTEGER NOT NULL CHECK (price > 0),   -- hundredths of a token
    source      TEXT    NOT NULL,                     -- the feed that set it: 'skinport', 'operator'
    updated_at  INTEGER NOT NULL                      -- unix seconds
);
-- Every price a variant had, oldest first: one row per change.
CREATE TABLE catalog_price_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    variant     TEXT    NOT NULL,
    price       INTEGER NOT NULL CHECK (price > 0),
    source      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX catalog_price_history_variant ON catalog_price_history(variant, id);
