-- Self-serve top-ups (issue 47 item 1). A top-up is a Stripe Checkout session (provider 'stripe',
-- provider_ref its session id) or, with no provider configured, a request an operator approves
-- ('manual'). Its amount and currency are fixed when it is created: a payment credits exactly the
-- stored amount, once (status leaves 'pending' once, under the row lock; the ledger entry's
-- reference `topup:<id>` is unique per account and kind).
CREATE TABLE top_ups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  provider text NOT NULL CHECK (provider IN ('stripe', 'manual')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'approved', 'rejected', 'expired')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency char(3) NOT NULL,
  provider_ref text,
  note text,
  requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
  decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
  decision_note text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX top_ups_provider_ref_key ON top_ups (provider, provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX top_ups_account_idx ON top_ups (account_id, created_at DESC);
CREATE INDEX top_ups_pending_idx ON top_ups (created_at) WHERE status = 'pending';

-- Every verified provider event, once per event id: a replayed event finds its row and does nothing.
-- Written in the same transaction as the credit it causes.
CREATE TABLE payment_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  top_up_id uuid REFERENCES top_ups(id),
  outcome text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
