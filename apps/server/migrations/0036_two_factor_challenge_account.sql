-- An enrollment challenge can name the account its session will act on (issue 39): accepting an
-- invite into, or switching into, an account that requires two-factor makes the member enroll
-- first, and the session opens in that account, not the sign-in's default. NULL: the default.
ALTER TABLE two_factor_challenges
  ADD COLUMN account_id uuid REFERENCES accounts (id) ON DELETE CASCADE;
