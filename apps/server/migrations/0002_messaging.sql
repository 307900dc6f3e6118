-- Pricing, messages (the send queue), receipts and their history.

CREATE TABLE rate_plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  currency char(3) NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX rate_plans_one_default ON rate_plans (is_default) WHERE is_default;

-- Price per segment for destinations starting with prefix ('' = everywhere else), in minor units.
CREATE TABLE rate_plan_prices (
  plan_id uuid NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
  prefix text NOT NULL,
  country text,
  price_minor integer NOT NULL CHECK (price_minor >= 0),
  PRIMARY KEY (plan_id, prefix)
);

ALTER TABLE accounts ADD COLUMN rate_plan_id uuid REFERENCES rate_plans(id);

INSERT INTO rate_plans (name, currency, is_default) VALUES ('Standard', 'USD', true);
INSERT INTO rate_plan_prices (plan_id, prefix, country, price_minor)
SELECT id, p.prefix, p.country, p.price FROM rate_plans,
  (VALUES ('', NULL, 5), ('+1', 'US/CA', 1), ('+44', 'GB', 4), ('+49', 'DE', 6), ('+33', 'FR', 6),
          ('+91', 'IN', 1), ('+234', 'NG', 3), ('+254', 'KE', 2), ('+27', 'ZA', 2), ('+61', 'AU', 4))
    AS p(prefix, country, price)
WHERE name = 'Standard';

CREATE TABLE campaigns (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  kind text NOT NULL CHECK (kind IN ('single', 'bulk', 'personalised', 'api', 'otp')),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_account_idx ON campaigns (account_id, created_at DESC, id DESC);

CREATE TABLE messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  campaign_id uuid REFERENCES campaigns(id),
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  recipient text NOT NULL,
  sender text NOT NULL,
  body text NOT NULL,
  encoding text NOT NULL CHECK (encoding IN ('GSM-7', 'UCS-2')),
  segments integer NOT NULL CHECK (segments > 0),
  price_minor integer NOT NULL,
  currency char(3) NOT NULL,
  status text NOT NULL CHECK (status IN ('scheduled','queued','sending','sent','delivered','undelivered','expired','rejected','failed','canceled')),
  -- 0 = OTP, 1 = single, 2 = bulk: lower goes first.
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
  -- Millisecond precision so keyset cursors round-trip exactly through JavaScript dates.
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  done_at timestamptz
);
-- The SMS log: keyset pagination per account, newest first.
CREATE INDEX messages_log_idx ON messages (account_id, created_at DESC, id DESC);
-- The send queue: only rows still waiting are indexed.
CREATE INDEX messages_queue_idx ON messages (priority, next_attempt_at) WHERE status = 'queued';
CREATE INDEX messages_scheduled_idx ON messages (scheduled_at) WHERE status = 'scheduled';
CREATE INDEX messages_lease_idx ON messages (lease_until) WHERE status = 'sending';
CREATE INDEX messages_campaign_idx ON messages (campaign_id, status) WHERE campaign_id IS NOT NULL;

-- One row per accepted segment, under every lookup key of its SMSC id (hex/decimal forms).
CREATE TABLE message_parts (
  connection text NOT NULL,
  smsc_key text NOT NULL,
  message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  part integer NOT NULL,
  stat text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection, smsc_key, message_id, part)
);
CREATE INDEX message_parts_message_idx ON message_parts (message_id);

-- Every status transition and every raw receipt.
CREATE TABLE message_events (
  id bigserial PRIMARY KEY,
  message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  status text NOT NULL,
  detail text,
  raw text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_events_message_idx ON message_events (message_id, id);

-- Receipts whose message is not known (yet): matched later, never dropped.
CREATE TABLE parked_receipts (
  id bigserial PRIMARY KEY,
  connection text NOT NULL,
  smsc_keys text[] NOT NULL,
  stat text NOT NULL,
  err text,
  done_at timestamptz,
  raw text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  matched_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX parked_receipts_open_idx ON parked_receipts (created_at) WHERE matched_at IS NULL;
