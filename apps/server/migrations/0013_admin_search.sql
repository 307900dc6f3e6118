-- Operator console, part two (issue #16).

-- Account search (/admin/accounts?q=…) matches a substring of the account name or of any of its
-- users' username, email or phone, in any case. A substring LIKE cannot use a b-tree, so without
-- these the search read every user row. pg_trgm is created in 0008.
CREATE INDEX users_username_trgm_idx ON users USING gin (lower(username) gin_trgm_ops);
CREATE INDEX users_email_trgm_idx ON users USING gin (lower(email) gin_trgm_ops);
CREATE INDEX users_phone_trgm_idx ON users USING gin (phone gin_trgm_ops);
CREATE INDEX accounts_name_trgm_idx ON accounts USING gin (lower(name) gin_trgm_ops);

-- Per-account send limits (accounts.daily_cap and accounts.max_per_second, from 0012), one row per
-- account that has either:
--   day, accepted: messages accepted on that UTC day. A send adds its recipients under this row's
--                  lock, so concurrent sends cannot pass the cap together; a new day starts at 0.
--   paced_until:   when the account's next message may be due. A send at N per second gives its
--                  messages due times 1/N s apart from max(now, paced_until) and moves it on, so the
--                  dispatcher's claim (due_at <= now) sends that account's messages at its rate
--                  while other accounts' messages are claimed as usual.
CREATE TABLE account_send_counters (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  day date NOT NULL,
  accepted integer NOT NULL DEFAULT 0 CHECK (accepted >= 0),
  paced_until timestamptz
);
