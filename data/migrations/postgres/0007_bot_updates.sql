-- Telegram updates already taken by a replica: an update delivered twice (a webhook retry, or the
-- same update posted to two replicas) is handled once. Rows older than Telegram keeps updates
-- (24 h) are pruned by the bot.
CREATE TABLE bot_updates (
    bot_id      BIGINT  NOT NULL,                    -- the bot's Telegram id: ids are per bot
    update_id   BIGINT  NOT NULL,
    received_at BIGINT  NOT NULL,                    -- unix seconds
    PRIMARY KEY (bot_id, update_id)
);
CREATE INDEX bot_updates_received ON bot_updates(received_at);
