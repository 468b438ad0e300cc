-- The chat message a notice was delivered as, so a player's reply to support's answer finds its ticket.
ALTER TABLE notifications ADD COLUMN message_id BIGINT;
CREATE INDEX notifications_message ON notifications(user_id, message_id);
