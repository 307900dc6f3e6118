-- The SMS log at a year's scale (issue #17): every log filter has an index that bounds its work, and
-- no index of `messages` mentions its status (status updates stay HOT, see 0005).
--
-- Pages are keyset row comparisons `(created_at, id) < (c, i)` on indexes ending in
-- (created_at DESC, id DESC), so a page at any depth is an index seek:
--   no filter, date range:  messages_log_idx (account_id, created_at DESC, id DESC)   (0002)
--   recipient exact/prefix: messages_log_recipient_idx below
--   sender: messages_log_sender_idx below
--   text (substring, any case): messages_body_trgm_idx below (pg_trgm; the planner walks the log
--     index instead when the text is common)
--   status: see message_outcomes below.

-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the embedded cluster and
-- PostgreSQL 15 both have it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Recipient as E.164: equality (a whole number) and prefix (`LIKE '+4477%'`, which text_pattern_ops
-- turns into a range whatever the database collation), then the keyset order.
CREATE INDEX messages_log_recipient_idx
  ON messages (account_id, recipient text_pattern_ops, created_at DESC, id DESC);

-- Sender ID (any case), then the keyset order.
CREATE INDEX messages_log_sender_idx ON messages (account_id, lower(sender), created_at DESC, id DESC);

-- Text search: substring, any case (ILIKE), served by trigrams for 3+ character searches.
CREATE INDEX messages_body_trgm_idx ON messages USING gin (body gin_trgm_ops);

-- Status. An index on (account_id, status, …) would make every status update non-HOT again (a column
-- an index mentions, even only in a partial index's predicate, blocks HOT). Instead:
--   * final statuses other than `delivered` (the uncommon outcomes) are recorded once, by trigger, in
--     this small table: a status filter for them seeks here, in keyset order, and joins the log row;
--   * scheduled, queued and sending messages all have a row in send_queue, and a sent message has an
--     open part (message_parts_open_idx): a filter for them is bounded by the work in flight;
--   * `delivered` (most rows) walks the log index and stops at a page.
-- Final statuses never change again (a status only moves forward), so a row here is never stale.
CREATE TABLE message_outcomes (
  account_id uuid NOT NULL,
  status text NOT NULL,
  created_at timestamptz(3) NOT NULL,
  id uuid NOT NULL,
  PRIMARY KEY (account_id, status, created_at, id)
);

CREATE FUNCTION record_message_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_outcomes (account_id, status, created_at, id)
  VALUES (NEW.account_id, NEW.status, NEW.created_at, NEW.id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_outcome_on_update AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown')
        AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION record_message_outcome();
CREATE TRIGGER messages_outcome_on_insert AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'))
  EXECUTE FUNCTION record_message_outcome();

INSERT INTO message_outcomes (account_id, status, created_at, id)
SELECT account_id, status, created_at, id FROM messages
 WHERE status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown');

-- Maintenance: the parked-receipt sweep reads open receipts still being retried, in id order;
-- receipts that gave up (100 attempts) leave this index, so the sweep never rereads them.
CREATE INDEX parked_receipts_retry_idx ON parked_receipts (id) WHERE matched_at IS NULL AND attempts < 100;
