-- Issue #17: `messages` partitioned by month, keyed by its id (PostgreSQL native partitioning,
-- RANGE on id), so that an old month is one table MESSAGE_RETENTION_MONTHS can drop whole, and so
-- that every statement that finds a message by id alone (the dispatcher's claim, each status
-- transition, receipts, API reads) is pruned to the one partition that id can be in.
--
-- Ids are time-ordered UUIDv7 (RFC 9562) from now on: the first 48 bits are the Unix time in
-- milliseconds, so a month of ids is one contiguous range of uuid values. Wren makes them in
-- shared/message-uuid.ts; a row inserted without an id gets wren_uuidv7(now()) (tests, benches, SQL
-- seeds), whose instant is the same as the row's created_at default.
--
-- Layout:
--   messages_pYYYYMM  [lowest v7 id of the month's first instant (UTC), same of the next month)
--   messages_legacy   DEFAULT partition: every other id. The random v4 ids of rows made before this
--                     migration land wherever their value falls: almost all here (a month's range is
--                     ~1/100,000 of the uuid space), a rare one in some month's range. It takes no
--                     new rows (a v7 id of a month with no partition yet would, until its month is
--                     created: modules/messages/partitions.ts moves such rows into their month).
-- modules/messages/partitions.ts keeps the current month and 3 ahead created (worker boot, daily).
--
-- The primary key stays (id): id is the partition key. The foreign keys from message_parts,
-- message_events and api_messages to messages(id) are dropped: with a partitioned messages table
-- each referencing insert's check costs ~13 µs more (measured on PostgreSQL 15, 28 partitions:
-- 18.8 against 5.8 µs per row), and a referenced partition can only be dropped after a DETACH that
-- checks every referencing table against it (1.5 s for a 1M-row month, under an exclusive lock).
-- Retention deletes a month's dependants itself, by their message-id indexes, before dropping it.
-- otp_verifications.message_id and send_queue/webhook_status_outbox/message_outcomes never had one.
--
-- fillfactor 50 (0005: status updates stay HOT) is a storage parameter of each partition; a
-- partitioned parent cannot carry it.

-- A UUIDv7 for instant t: 48-bit Unix milliseconds, version 7, variant 10, 74 random bits.
CREATE FUNCTION wren_uuidv7(t timestamptz) RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
           set_bit(set_bit(
             overlay(uuid_send(gen_random_uuid())
                     PLACING substring(int8send(floor(extract(epoch FROM t) * 1000)::bigint) FROM 3)
                     FROM 1 FOR 6),
             52, 1), 53, 1),
           'hex')::uuid
$$;

-- The lowest UUIDv7 of instant t (its milliseconds, version 7, variant 10, every other bit 0): the
-- bound of a month's partition. Same as lowestMessageIdAt() in shared/message-uuid.ts.
CREATE FUNCTION wren_uuidv7_floor(t timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') || '70008000000000000000')::uuid
$$;

ALTER TABLE message_parts DROP CONSTRAINT message_parts_message_id_fkey;
ALTER TABLE message_events DROP CONSTRAINT message_events_message_id_fkey;
ALTER TABLE api_messages DROP CONSTRAINT api_messages_message_id_fkey;

ALTER TABLE messages RENAME TO messages_unpartitioned;
ALTER TABLE messages_unpartitioned RENAME CONSTRAINT messages_pkey TO messages_unpartitioned_pkey;

CREATE TABLE messages (
  id uuid NOT NULL DEFAULT wren_uuidv7(now()),
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
) PARTITION BY RANGE (id);

CREATE TABLE messages_legacy PARTITION OF messages DEFAULT WITH (fillfactor = 50);

-- The current month and the 3 after it (UTC).
DO $$
DECLARE
  m timestamptz;
BEGIN
  FOR k IN 0..3 LOOP
    m := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC';
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 50)',
      'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'),
      wren_uuidv7_floor(m),
      wren_uuidv7_floor(((m AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'));
  END LOOP;
END $$;

-- Copy before any index or trigger exists: one pass, and the copied rows fire no outcome or
-- webhook trigger (their outcomes and webhooks were recorded when they happened).
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
ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (id);
CREATE INDEX messages_log_idx ON messages (account_id, created_at DESC, id DESC);
CREATE INDEX messages_recipient_idx ON messages (recipient, created_at DESC);
CREATE INDEX messages_log_recipient_idx
  ON messages (account_id, recipient text_pattern_ops, created_at DESC, id DESC);
CREATE INDEX messages_log_sender_idx ON messages (account_id, lower(sender), created_at DESC, id DESC);
CREATE INDEX messages_body_trgm_idx ON messages USING gin (body gin_trgm_ops);
CREATE INDEX messages_campaign_keyset_idx
  ON messages (campaign_id, created_at DESC, id DESC)
  WHERE campaign_id IS NOT NULL;
-- The legacy partition's ids say nothing of their time: retention finds its old rows by created_at.
CREATE INDEX messages_legacy_created_idx ON messages_legacy (created_at, id);

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
