-- Two-factor sign-in (issue 39 item 3): TOTP (RFC 6238), recovery codes, remembered devices and
-- the short-lived challenge between the password step and the code step.

-- A user's TOTP secret, AES-256-GCM encrypted with a key derived from the server secret
-- (two-factor-crypto.ts); never returned after enrollment. enabled_at is null while an enrollment
-- waits for its first code. last_step is the 30-second step of the last code accepted: a code
-- of that step or an earlier one is refused (no replay within its window).
CREATE TABLE user_two_factor (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_enc text NOT NULL,
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten single-use recovery codes per user; only their sha256 is kept.
CREATE TABLE two_factor_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_recovery_codes_user_idx ON two_factor_recovery_codes (user_id);

-- Devices whose sign-in skips the code step for 30 days (an httpOnly cookie; its sha256 here).
CREATE TABLE two_factor_devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  user_agent text,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_devices_user_idx ON two_factor_devices (user_id);

-- The step between a correct password and the code (kind 'code'), or, in an account that requires
-- two-factor, the enrollment a member without it must finish first (kind 'enroll'). Single use,
-- 5 minutes; only the sha256 of the token is kept.
CREATE TABLE two_factor_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('code', 'enroll')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_challenges_user_idx ON two_factor_challenges (user_id);

-- An owner or admin can require two-factor of every member of the account.
ALTER TABLE accounts ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;
