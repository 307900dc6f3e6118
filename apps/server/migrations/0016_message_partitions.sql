-- Issue #17: `messages` partitioned by month (PostgreSQL native partitioning, RANGE on created_at),
-- so that an old month is one table that MESSAGE_RETENTION_MONTHS drops whole (instant, no DELETE
-- of millions of rows, no bloat) and month-bounded queries touch only their months.
--
-- Layout:
--   messages_pYYYYMM   [first of the month 00:00 UTC, first of the next month 00:00 UTC)
--   messages_pdefault  DEFAULT partition: a row whose month has no partition (yet) still inserts
--                      (benches and tests write past/future created_at; a test clock may jump).
--                      modules/messages/partitions.ts ensurePartitions() keeps the current month and
--                      3 ahead created (at boot and daily) and moves a month's rows out of the default
--                      when it creates that month.
--
-- Keys: a unique key of a partitioned table must contain the partition key, so the primary key is
-- (id, created_at). Ids are still unique: gen_random_uuid() (122 random bits) in every insert path.
-- A lookup by id alone cannot prune and probes each partition's primary-key index (measured and
-- reported in the issue's note; callers that know created_at can add it to prune).
--
-- Foreign keys to messages(id) cannot stay (the referenced key must be unique on its own). Dropped:
--   message_parts.message_id, message_events.message_id, api_messages.message_id.
-- Their rows go with their month instead: applyRetention() (partitions.ts), before it detaches a
-- month, reads that month's ids in batches (the partition's own primary key, in id order) and deletes
-- the dependants by their message-id indexes: message_parts (message_parts_message_idx),
-- message_events (message_events_message_idx), api_messages (its primary key), send_queue and
-- webhook_status_outbox (their primary keys), message_outcomes (its primary key, matched on the
-- month's rows). The work is bounded by the month's own rows, by index, never a scan of a table; the
-- message rows themselves cost nothing (DROP TABLE of the detached month). otp_verifications keeps its
-- (FK-less, nullable) message_id: its reads left-join messages. The ledger has no reference to
-- messages and is never touched: a message's money survives its text.
--
-- fillfactor 50 (0005: status updates stay HOT) is a storage parameter of each partition; a
-- partitioned parent cannot carry it.

ALTER TABLE message_parts DROP CONSTRAINT message_parts_message_id_fkey;
ALTER TABLE message_events DROP CONSTRAINT message_events_message_id_fkey;
ALTER TABLE api_messages DROP CONSTRAINT api_messages_message_id_fkey;

ALTER TABLE messages RENAME TO messages_unpartitioned;

CREATE TABLE messages (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL CONSTRAINT messages_account_id_fkey REFERENCES accounts(id),
  campaign_id uuid CONSTRAINT messages_campaign_id_fkey REFERENCES campaigns(id),
  user_id uuid CONSTRAINT messages_user_id_fkey REFERENCES users(id) ON DELETE SET NULL,
  recipient text NOT NULL,
  sender text NOT NULL,
  body text NOT NULL,
  encoding text NOT NULL CONSTRAINT messages_encoding_check CHECK (encoding IN ('GSM-7', 'UCS-2')),
  segments integer NOT NULL CONSTRAINT messages_segments_check CHECK (segments > 0),
  price_minor integer NOT NULL,
  currency char(3) NOT NULL,
  status text NOT NULL CONSTRAINT messages_status_check CHECK (status IN
    ('scheduled', 'queued', 'sending', 'sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed',
     'canceled', 'unknown')),
  priority smallint NOT NULL DEFAULT 1,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  leased_by text,
  scheduled_at timestamptz,
  timezone text,
  validity_until timestamptz NOT NULL,
  connection text,
  parts_done integer NOT NULL DEFAULT 0,
  smsc_stat text,
  smsc_err text,
  error text,
  refunded boolean NOT NULL DEFAULT false,
  client_ref text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  done_at timestamptz,
  receipt_raw text,
  receipt_due_at timestamptz
) PARTITION BY RANGE (created_at);

CREATE TABLE messages_pdefault PARTITION OF messages DEFAULT WITH (fillfactor = 50);

-- One partition per month present in the old rows, plus the current month and the 3 after it.
DO $$
DECLARE
  m timestamptz;
BEGIN
  FOR m IN
    SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      FROM messages_unpartitioned
    UNION
    SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC'
      FROM generate_series(0, 3) AS k
  LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 50)',
      'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'),
      to_char(m AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00"'),
      to_char((m AT TIME ZONE 'UTC') + interval '1 month', 'YYYY-MM-DD"T"HH24:MI:SS"+00"'));
  END LOOP;
END $$;

-- Copy before any index or trigger exists: one pass per partition, and the copied rows fire no
-- outcome or webhook trigger (their outcomes and webhooks were recorded when they happened).
INSERT INTO messages (
  id, account_id, campaign_id, user_id, recipient, sender, body, encoding, segments, price_minor, currency,
  status, priority, attempts, next_attempt_at, lease_until, leased_by, scheduled_at, timezone,
  validity_until, connection, parts_done, smsc_stat, smsc_err, error, refunded, client_ref, created_at,
  submitted_at, done_at, receipt_raw, receipt_due_at)
SELECT
  id, account_id, campaign_id, user_id, recipient, sender, body, encoding, segments, price_minor, currency,
  status, priority, attempts, next_attempt_at, lease_until, leased_by, scheduled_at, timezone,
  validity_until, connection, parts_done, smsc_stat, smsc_err, error, refunded, client_ref, created_at,
  submitted_at, done_at, receipt_raw, receipt_due_at
FROM messages_unpartitioned;

DROP TABLE messages_unpartitioned;

-- Every index of the old table (0002, 0006, 0008, 0014), now partitioned indexes (one per partition;
-- a partition created later gets them all).
ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (id, created_at);
CREATE INDEX messages_log_idx ON messages (account_id, created_at DESC, id DESC);
CREATE INDEX messages_recipient_idx ON messages (recipient, created_at DESC);
CREATE INDEX messages_log_recipient_idx
  ON messages (account_id, recipient text_pattern_ops, created_at DESC, id DESC);
CREATE INDEX messages_log_sender_idx ON messages (account_id, lower(sender), created_at DESC, id DESC);
CREATE INDEX messages_body_trgm_idx ON messages USING gin (body gin_trgm_ops);
CREATE INDEX messages_campaign_keyset_idx
  ON messages (campaign_id, created_at DESC, id DESC)
  WHERE campaign_id IS NOT NULL;

-- The row triggers of 0008 (outcomes) and 0015 (webhook outbox), on the parent (cloned to every
-- partition, present and future).
CREATE TRIGGER messages_outcome_on_update AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown')
        AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION record_message_outcome();
CREATE TRIGGER messages_outcome_on_insert AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'))
  EXECUTE FUNCTION record_message_outcome();
CREATE TRIGGER messages_status_webhook_on_update AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.done_at IS NOT NULL AND OLD.done_at IS NULL)
  EXECUTE FUNCTION queue_status_webhook();
CREATE TRIGGER messages_status_webhook_on_insert AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.done_at IS NOT NULL)
  EXECUTE FUNCTION queue_status_webhook();

ANALYZE messages;
