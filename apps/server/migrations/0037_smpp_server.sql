-- SMPP server for customers (issue 37): SMPP accounts, the messages sent through them, the
-- store-and-forward outbox of their receipts and inbound messages, and the concatenated parts
-- waiting for their siblings.

-- One login of an account's SMPP clients. The password (8 characters, SMPP 3.4's limit) is shown
-- once; only its Argon2id hash is kept (8 characters are too few for a fast hash).
CREATE TABLE smpp_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  -- What the client sends as system_id; unique across Wren (a bind names no account).
  system_id text NOT NULL UNIQUE CHECK (system_id ~ '^[A-Za-z0-9_.-]{3,15}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  password_hash text NOT NULL,
  -- CIDRs (IPv4 and IPv6); empty: any address.
  ip_allowlist text[] NOT NULL DEFAULT '{}',
  max_binds integer NOT NULL DEFAULT 2 CHECK (max_binds BETWEEN 1 AND 64),
  bind_modes text[] NOT NULL DEFAULT '{tx,rx,trx}' CHECK (bind_modes <@ '{tx,rx,trx}' AND cardinality(bind_modes) > 0),
  -- submit_sm per second over all of the login's binds on one node; beyond it ESME_RTHROTTLED.
  throughput_per_second integer NOT NULL DEFAULT 50 CHECK (throughput_per_second BETWEEN 1 AND 10000),
  -- Requests a bind may have unanswered at once (both directions: submits in, receipts out).
  window_size integer NOT NULL DEFAULT 10 CHECK (window_size BETWEEN 1 AND 1000),
  default_sender text,
  -- How message ids are written to the client: decimal digits or hexadecimal.
  id_notation text NOT NULL DEFAULT 'decimal' CHECK (id_notation IN ('decimal', 'hex')),
  -- Receipts and inbound messages that expired unsent (SMPP_SERVER_RECEIPT_TTL_HOURS).
  expired_count bigint NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  password_rotated_at timestamptz(3),
  disabled_at timestamptz(3),
  last_bind_at timestamptz(3),
  last_bind_ip text
);
CREATE INDEX smpp_accounts_account_idx ON smpp_accounts (account_id, created_at DESC, id DESC);

-- The SMPP message ids (decimal or hex on the wire): one per submit_sm, a concatenated message's
-- parts each have their own.
CREATE SEQUENCE smpp_message_ids START 100000;

-- A submit_sm's link to Wren's message (a concatenated message: one row per part, one message).
-- No foreign key to the partitioned messages table (as api_messages).
CREATE TABLE smpp_messages (
  smpp_id bigint PRIMARY KEY,
  smpp_account_id uuid NOT NULL REFERENCES smpp_accounts(id) ON DELETE CASCADE,
  message_id uuid NOT NULL,
  -- registered_delivery as the client sent it: bits 0-1 final receipts (1 any, 2 failure), bit 4
  -- intermediate (the message went out to the carrier).
  registered_delivery smallint NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX smpp_messages_message_idx ON smpp_messages (message_id);

-- Receipts and inbound messages waiting for a receiver or transceiver bind of their SMPP account,
-- in order (id). A node that sends one claims it (claimed_until), deletes it on deliver_sm_resp,
-- or lets the claim lapse and sends it again. `payload`: the message as it was at the change.
CREATE TABLE smpp_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  smpp_account_id uuid NOT NULL REFERENCES smpp_accounts(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('receipt', 'mo')),
  smpp_id bigint,
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  claimed_until timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX smpp_outbox_account_idx ON smpp_outbox (smpp_account_id, id);
CREATE INDEX smpp_outbox_created_idx ON smpp_outbox (created_at);

-- Parts of a concatenated submit (UDH or sar_*), acknowledged and kept until the last one arrives.
CREATE TABLE smpp_parts (
  smpp_account_id uuid NOT NULL REFERENCES smpp_accounts(id) ON DELETE CASCADE,
  -- source, destination and reference of the concatenation
  concat_key text NOT NULL,
  seq integer NOT NULL,
  total integer NOT NULL,
  smpp_id bigint NOT NULL,
  text text NOT NULL,
  registered_delivery smallint NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (smpp_account_id, concat_key, seq)
);
CREATE INDEX smpp_parts_created_idx ON smpp_parts (created_at);

-- The binds open now, on every node: each node adds its binds, refreshes their figures every few
-- seconds (seen_at) and removes them on unbind; a row not seen for 30 s is a node's that died.
-- The live-binds list reads them, and a bind counts them against max_binds.
CREATE UNLOGGED TABLE smpp_binds (
  id uuid PRIMARY KEY,
  smpp_account_id uuid NOT NULL REFERENCES smpp_accounts(id) ON DELETE CASCADE,
  node text NOT NULL,
  mode text NOT NULL,
  remote_address text NOT NULL,
  tls boolean NOT NULL,
  bound_at timestamptz(3) NOT NULL DEFAULT now(),
  window_in_use integer NOT NULL DEFAULT 0,
  submits_per_second real NOT NULL DEFAULT 0,
  seen_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX smpp_binds_account_idx ON smpp_binds (smpp_account_id);

-- A status change of a message sent over SMPP queues the receipts its client asked for, in the
-- transaction that makes the change (on whichever node: worker, API), and wakes the nodes with
-- binds (NOTIFY wren_smpp_outbox, payload: the SMPP account's id). The cost on the status path:
-- one index lookup per change of a message (smpp_messages_message_idx).
CREATE FUNCTION queue_smpp_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  final boolean := NEW.done_at IS NOT NULL;
  failed boolean := NEW.status <> 'delivered';
BEGIN
  FOR r IN SELECT m.smpp_id, m.smpp_account_id, m.registered_delivery FROM smpp_messages m
           WHERE m.message_id = NEW.id LOOP
    IF (final AND ((r.registered_delivery & 3) = 1 OR ((r.registered_delivery & 3) = 2 AND failed)))
       OR (NOT final AND NEW.status = 'sent' AND (r.registered_delivery & 16) = 16) THEN
      INSERT INTO smpp_outbox (smpp_account_id, kind, smpp_id, payload)
      VALUES (r.smpp_account_id, 'receipt', r.smpp_id, jsonb_build_object(
        'status', NEW.status, 'recipient', NEW.recipient, 'sender', NEW.sender,
        'body', left(NEW.body, 20), 'segments', NEW.segments, 'err', NEW.smsc_err,
        'submittedAt', coalesce(NEW.submitted_at, NEW.created_at), 'doneAt', coalesce(NEW.done_at, now())));
      PERFORM pg_notify('wren_smpp_outbox', r.smpp_account_id::text);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_smpp_receipt_on_update AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN
        ('sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'))
  EXECUTE FUNCTION queue_smpp_receipt();

-- Inbound messages (MO) of an account go to each of its enabled SMPP accounts, the same way.
CREATE FUNCTION queue_smpp_mo() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  a record;
BEGIN
  FOR a IN SELECT s.id FROM smpp_accounts s WHERE s.account_id = NEW.account_id AND s.disabled_at IS NULL LOOP
    INSERT INTO smpp_outbox (smpp_account_id, kind, payload)
    VALUES (a.id, 'mo', jsonb_build_object('sender', NEW.sender, 'recipient', NEW.recipient, 'text', NEW.text));
    PERFORM pg_notify('wren_smpp_outbox', a.id::text);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER inbound_messages_smpp_mo AFTER INSERT ON inbound_messages
  FOR EACH ROW
  WHEN (NEW.account_id IS NOT NULL)
  EXECUTE FUNCTION queue_smpp_mo();
