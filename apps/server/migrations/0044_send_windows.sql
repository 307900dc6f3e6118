-- Send windows (issue 41 item 1). The account's default window for its campaigns (NULL: any hour),
-- and whether its single sends wait for it too. OTP never waits.
CREATE TABLE account_send_windows (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  send_window jsonb,
  apply_to_single boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The window a campaign was accepted with (its own, or the account's default then); NULL: any hour.
-- Its fallback zone (numbers whose own is not known) is the campaign's timezone, else UTC.
ALTER TABLE bulk_campaigns ADD COLUMN send_window jsonb;
