-- Developer API (issue #13): API keys, the /v1 API's idempotency records, API-sent messages and
-- signed delivery webhooks.

-- A key's secret is `wren_live_<prefix><rest>`: only `prefix` (the first 8 random characters) and
-- the SHA-256 of the whole secret are stored. A request is looked up by prefix and compared by hash.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  prefix text NOT NULL UNIQUE,
  secret_hash bytea NOT NULL,
  scopes text[] NOT NULL,
  -- CIDRs (IPv4 and IPv6); empty: any address.
  ip_allowlist text[] NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  -- Requests per minute; NULL: the server default (API_KEY_RATE_LIMIT_PER_MINUTE).
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  webhook_url text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz,
  last_used_ip text
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at DESC, id DESC);

-- Requests per key per hour by status class (2xx, 4xx, 5xx), flushed from memory every few seconds.
CREATE TABLE api_key_usage (
  api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  status_class smallint NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  PRIMARY KEY (api_key_id, hour, status_class)
);

-- Error codes answered per key per day (the report's top errors).
CREATE TABLE api_key_errors (
  api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  day date NOT NULL,
  code text NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  PRIMARY KEY (api_key_id, day, code)
);

-- Idempotency-Key records: the same key with the same body replays the stored response for 24 h.
CREATE TABLE idempotency_keys (
  account_id uuid NOT NULL REFERENCES accounts(id),
  key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  request_hash text NOT NULL,
  -- NULL while the first request runs.
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Messages sent through /v1: the key that sent them, the caller's reference and where their final
-- status is delivered. `notify_pending` rows are watched for a final status by the webhook sweep
-- (the message core's hot path is untouched).
CREATE TABLE api_messages (
  message_id uuid PRIMARY KEY REFERENCES messages(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  client_ref text,
  callback_url text,
  notify_pending boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX api_messages_key_idx ON api_messages (api_key_id, created_at);
CREATE INDEX api_messages_ref_idx ON api_messages (account_id, client_ref) WHERE client_ref IS NOT NULL;
CREATE INDEX api_messages_pending_idx ON api_messages (created_at) WHERE notify_pending;

-- Per-account webhook settings: the Standard Webhooks signing secret (whsec_…) and the URL that
-- receives inbound messages and the final status of API messages sent without a callback URL.
CREATE TABLE webhook_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  secret text NOT NULL,
  url text,
  -- Inbound messages up to this time have been turned into events.
  inbound_seen_at timestamptz(3) NOT NULL DEFAULT now(),
  rotated_at timestamptz NOT NULL DEFAULT now()
);

-- One event to one URL; `id` is the webhook-id header (the same on every attempt and replay).
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
  event_type text NOT NULL,
  url text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Retries stop after this (24 h after the event).
  give_up_at timestamptz NOT NULL,
  last_status_code integer,
  last_error text,
  last_latency_ms integer,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_key_idx ON webhook_deliveries (api_key_id, created_at DESC) WHERE api_key_id IS NOT NULL;

-- Every attempt, kept for the delivery log.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz(3) NOT NULL DEFAULT now(),
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  replay boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
