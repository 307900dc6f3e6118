-- Inbound (mobile-originated) messages and per-account suppression lists (issue #10 item 6).

CREATE TABLE inbound_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The account that most recently sent to the sender; NULL when none did (visible to no customer).
  account_id uuid REFERENCES accounts(id),
  sender text NOT NULL,     -- the handset: E.164 when the SMSC gave an international number
  recipient text NOT NULL,  -- the number or sender ID it was sent to
  text text NOT NULL,
  -- Number of concatenated parts it was reassembled from (1 for a single part).
  parts integer NOT NULL DEFAULT 1 CHECK (parts > 0),
  connection text NOT NULL,
  -- The opt-out/opt-in keyword found in it: STOP, START, … (upper case), or NULL.
  keyword text,
  -- Millisecond precision so keyset cursors round-trip exactly through JavaScript dates.
  received_at timestamptz(3) NOT NULL DEFAULT now()
);
-- The inbox: keyset pagination per account, newest first.
CREATE INDEX inbound_messages_account_idx ON inbound_messages (account_id, received_at DESC, id DESC);

CREATE TABLE suppressions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  phone text NOT NULL, -- E.164
  reason text NOT NULL CHECK (reason IN ('stop_keyword', 'manual')),
  inbound_message_id uuid REFERENCES inbound_messages(id) ON DELETE SET NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX suppressions_phone_key ON suppressions (account_id, phone);

-- Attributing an MO: the newest message to the handset (optionally from the number it answered).
CREATE INDEX messages_recipient_idx ON messages (recipient, created_at DESC);
