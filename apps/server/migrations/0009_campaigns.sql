-- Campaigns (issue #11): bulk and personalised sends to up to a million recipients.
--
-- A campaign keeps its text once (bulk_campaigns.body) and its recipients compactly, one narrow row
-- each (campaign_recipients: the number as a bigint, its price and segments, and for a personalised
-- campaign only the values its placeholders use). Nothing is written to `messages` at acceptance:
-- the materialiser turns recipients into messages of the core queue (send_queue, bulk lane) in
-- batches, a window at a time, so the single and OTP lanes are never behind a campaign's backlog.

CREATE TABLE bulk_campaigns (
  campaign_id uuid PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  status text NOT NULL CHECK (status IN ('scheduled', 'sending', 'paused', 'completed', 'canceled')),
  sender text NOT NULL,
  -- The text (a personalised campaign's template, with {{column}} placeholders).
  body text NOT NULL,
  -- A personalised campaign: the columns its placeholders use, in the order of the recipients' values.
  columns text[] NOT NULL DEFAULT '{}',
  encoding text NOT NULL CHECK (encoding IN ('GSM-7', 'UCS-2')),
  -- Segments of the text (bulk), or the most of any row (personalised).
  segments integer NOT NULL,
  recipients integer NOT NULL,
  invalid integer NOT NULL DEFAULT 0,
  duplicates integer NOT NULL DEFAULT 0,
  suppressed integer NOT NULL DEFAULT 0,
  -- Recipients with seq below this are messages already (the materialiser's position).
  next_seq integer NOT NULL DEFAULT 0,
  materialised integer NOT NULL DEFAULT 0,
  cost_minor bigint NOT NULL,
  currency char(3) NOT NULL,
  -- Refunded at cancel for recipients that never became messages (once: the ledger reference).
  unsent_refund_minor bigint NOT NULL DEFAULT 0,
  scheduled_at timestamptz,
  timezone text,
  rate_per_minute integer CHECK (rate_per_minute IS NULL OR rate_per_minute > 0),
  resend_of uuid REFERENCES campaigns(id) ON DELETE SET NULL,
  -- Counts by message status, refreshed while the campaign is live (the report reads these).
  stats jsonb NOT NULL DEFAULT '{}',
  stats_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  -- With a send rate: the time up to which the rate's allowance was used (reset on resume).
  paced_at timestamptz,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The report: newest first per account, keyset on (created_at, id).
CREATE INDEX bulk_campaigns_account_idx ON bulk_campaigns (account_id, created_at DESC, campaign_id DESC);
-- The materialiser's work: campaigns waiting for their time or sending.
CREATE INDEX bulk_campaigns_live_idx ON bulk_campaigns (status, scheduled_at) WHERE status IN ('scheduled', 'sending');
-- Stats refresh of recently finished campaigns (late receipts).
CREATE INDEX bulk_campaigns_finished_idx ON bulk_campaigns (finished_at) WHERE status IN ('completed', 'canceled');

CREATE TABLE campaign_recipients (
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  -- E.164 digits without the +.
  phone bigint NOT NULL,
  price_minor integer NOT NULL,
  segments smallint NOT NULL,
  -- A personalised row's values for bulk_campaigns.columns, joined by U+001F; NULL for bulk.
  vals text,
  PRIMARY KEY (campaign_id, seq)
);

-- An uploaded recipients file, kept until it is used by a campaign or abandoned (a day).
CREATE TABLE campaign_uploads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  file_name text NOT NULL,
  file_type text NOT NULL CHECK (file_type IN ('csv', 'xlsx')),
  delimiter text,
  encoding text,
  has_header boolean NOT NULL,
  columns text[] NOT NULL,
  row_count_guess integer NOT NULL,
  file bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaign_uploads_account_idx ON campaign_uploads (account_id, created_at);
