-- An orphan payment (Stars received for no pending transaction) can be refunded by an admin.
ALTER TABLE orphan_payments ADD COLUMN refunded_at BIGINT;
