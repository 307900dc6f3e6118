-- Members and roles (issue 39). A user belongs to one or more accounts, with one role in each;
-- users.account_id stays the user's home (default) account. Every existing user becomes the owner
-- of their home account; registration inserts the owner row from now on.
CREATE TABLE account_members (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'sender', 'analyst', 'billing')),
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_members_user_idx ON account_members (user_id);

INSERT INTO account_members (account_id, user_id, role, created_at)
SELECT account_id, id, 'owner', created_at FROM users
ON CONFLICT DO NOTHING;

-- Invites by email: single use, 7 days; only the sha256 of the link's random token is kept.
CREATE TABLE account_invites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'sender', 'analyst', 'billing')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  revoked_at timestamptz,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_invites_account_idx ON account_invites (account_id, created_at DESC);

-- The account a session acts on (set at sign-in and at a switch): ending a member's sessions for
-- one account ends these. Sessions from before this column act on the user's home account.
ALTER TABLE sessions ADD COLUMN account_id uuid REFERENCES accounts (id) ON DELETE CASCADE;
UPDATE sessions s SET account_id = u.account_id FROM users u WHERE u.id = s.user_id;
CREATE INDEX sessions_account_user_idx ON sessions (account_id, user_id) WHERE revoked_at IS NULL;
