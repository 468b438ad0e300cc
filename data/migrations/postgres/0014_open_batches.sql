-- Opening several cases at once (issue 24, point 3): one debit pays every open of the request,
-- keyed by the first open ('open:' || id). Each further open of the same request names that
-- first open here, so its skin finds the debit that paid for it (refunds, the audit). NULL for a
-- single open and for the first of a batch.
ALTER TABLE case_opens ADD COLUMN batch_open_id BIGINT REFERENCES case_opens(id);
