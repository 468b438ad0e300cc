-- The live drop feed (docs/decisions.md, "Live drop feed"). One row per published drop; its id
-- is the event id a reconnecting client sends back as Last-Event-ID, so ids only grow and are
-- never reused (AUTOINCREMENT). A replayed open (same request id) answers the same inventory
-- item, which is unique here, so it is published once.
CREATE TABLE feed_events (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id         INTEGER NOT NULL UNIQUE,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    case_id         TEXT    NOT NULL,
    catalog_item_id TEXT    NOT NULL,
    created_at      INTEGER NOT NULL
);

-- 1: the player's drops show in the feed without their name.
ALTER TABLE users ADD COLUMN feed_hide_name INTEGER NOT NULL DEFAULT 0;
