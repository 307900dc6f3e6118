-- OTP services (issue #12): one-time passwords sent on the OTP lane of the message queue.

CREATE TABLE otp_services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  -- An approved sender ID of the account; '' sends from the account's default.
  sender_id text NOT NULL DEFAULT '',
  template text NOT NULL CHECK (position('{{' in template) > 0),
  code_length smallint NOT NULL DEFAULT 6 CHECK (code_length BETWEEN 4 AND 10),
  code_type text NOT NULL DEFAULT 'numeric' CHECK (code_type IN ('numeric', 'alphanumeric')),
  ttl_minutes smallint NOT NULL DEFAULT 10 CHECK (ttl_minutes BETWEEN 1 AND 60),
  max_attempts smallint NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 20),
  send_limit smallint NOT NULL DEFAULT 5 CHECK (send_limit BETWEEN 1 AND 100),
  send_window_minutes integer NOT NULL DEFAULT 10 CHECK (send_window_minutes BETWEEN 1 AND 1440),
  resend_cooldown_seconds integer NOT NULL DEFAULT 30 CHECK (resend_cooldown_seconds BETWEEN 0 AND 3600),
  -- ISO 3166 alpha-2 codes; empty allows every country.
  allowed_countries text[] NOT NULL DEFAULT '{}',
  -- Velocity guard: more than velocity_max_sends sends to one range (the number without its last
  -- velocity_range_digits digits) within velocity_window_minutes blocks the range for this service.
  velocity_max_sends integer NOT NULL DEFAULT 20 CHECK (velocity_max_sends BETWEEN 2 AND 10000),
  velocity_window_minutes integer NOT NULL DEFAULT 10 CHECK (velocity_window_minutes BETWEEN 1 AND 1440),
  velocity_range_digits smallint NOT NULL DEFAULT 3 CHECK (velocity_range_digits BETWEEN 1 AND 6),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_services_account_idx ON otp_services (account_id, created_at DESC);

-- One row per send request: a code sent (pending until checked), or a send refused by a guard
-- (status 'blocked' with the reason). The code itself is never stored: code_hash is an HMAC of it.
CREATE TABLE otp_verifications (
  id uuid PRIMARY KEY,
  service_id uuid NOT NULL REFERENCES otp_services(id) ON DELETE CASCADE,
  account_id uuid NOT NULL,
  recipient text NOT NULL,
  -- The velocity guard's range of the recipient (E.164 without its last digits).
  range_prefix text NOT NULL,
  code_hash bytea,
  status text NOT NULL CHECK (status IN
    ('pending', 'approved', 'expired', 'max_attempts_reached', 'canceled', 'blocked')),
  attempts smallint NOT NULL DEFAULT 0,
  max_attempts smallint NOT NULL,
  message_id uuid,
  blocked_reason text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  approved_at timestamptz,
  CHECK (status = 'blocked' OR code_hash IS NOT NULL)
);
-- The view's table and charts (newest first, keyset), and the 24 h figures of the list.
CREATE INDEX otp_verifications_service_idx ON otp_verifications (service_id, created_at DESC, id DESC);
-- The per-number send limit, cooldown and the latest code of a number.
CREATE INDEX otp_verifications_recipient_idx ON otp_verifications (service_id, recipient, created_at DESC);
-- The velocity guard's count per range.
CREATE INDEX otp_verifications_range_idx ON otp_verifications (service_id, range_prefix, created_at DESC)
  WHERE status <> 'blocked';

-- Number ranges the velocity guard blocked for a service, and why.
CREATE TABLE otp_blocked_ranges (
  service_id uuid NOT NULL REFERENCES otp_services(id) ON DELETE CASCADE,
  range_prefix text NOT NULL,
  reason text NOT NULL,
  blocked_at timestamptz NOT NULL,
  blocked_until timestamptz NOT NULL,
  PRIMARY KEY (service_id, range_prefix)
);
