-- Numbers (issue 40 item 0): long codes and short codes operators keep in an inventory and assign to
-- accounts at a monthly price. An assigned number is an approved sender ID of its account
-- (sender_ids.number_id) and inbound messages to it go to that account.
-- paid_until: the rental is paid through then; the renewal job charges the next month in advance
-- (ledger kind number_rental, reference 'number:<id>:<paid_until>', so a month is charged once).
-- past_due_since: a renewal the balance did not cover; retried, and released NUMBER_GRACE_DAYS later.
CREATE TABLE phone_numbers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  number text NOT NULL UNIQUE CHECK (number ~ '^(\+[1-9][0-9]{6,14}|[0-9]{3,8})$'),
  kind text NOT NULL CHECK (kind IN ('long', 'short')),
  country char(2) NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  connection text,
  monthly_price_minor bigint NOT NULL CHECK (monthly_price_minor >= 0),
  account_id uuid REFERENCES accounts (id),
  assigned_at timestamptz,
  paid_until timestamptz,
  past_due_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((account_id IS NULL) = (assigned_at IS NULL) AND (account_id IS NULL) = (paid_until IS NULL)),
  CHECK ((kind = 'short') = (number !~ '^\+'))
);
CREATE INDEX phone_numbers_account ON phone_numbers (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX phone_numbers_due ON phone_numbers (paid_until) WHERE account_id IS NOT NULL;

-- The sender ID an assigned number gives its account (removed with the assignment).
ALTER TABLE sender_ids ADD COLUMN number_id uuid REFERENCES phone_numbers (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX sender_ids_number ON sender_ids (number_id) WHERE number_id IS NOT NULL;
