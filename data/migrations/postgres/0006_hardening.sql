-- Sessions: the order of a player's sign-ins (the oldest is ended first past the per-player
-- cap), and an index so expired sessions are found without a scan.
ALTER TABLE sessions ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX sessions_expiry ON sessions(expires_at);
