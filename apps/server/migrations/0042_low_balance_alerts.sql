-- Low-balance alerts (issue 47 item 1): a threshold the account sets. `armed` is true while the
-- balance is at or above the threshold; the alert fires (email and in-app) when one UPDATE finds it
-- armed and the balance below, and disarms it in the same statement, so it fires once per crossing
-- on any number of nodes. It re-arms when the balance is back at or above the threshold.
CREATE TABLE low_balance_alerts (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  threshold_minor bigint NOT NULL CHECK (threshold_minor > 0),
  armed boolean NOT NULL DEFAULT true,
  fired_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
