-- Message core v2: receipt matching that cannot cross messages.

-- A part is stored under one key only: the canonical form of its submit_sm_resp id. The receipt's
-- id is converted to that form through the connection's id notation (see gateway/message-id.ts).
ALTER TABLE message_parts ADD COLUMN err text;

-- Why a receipt is parked (no part yet, ambiguous, notation not known yet).
ALTER TABLE parked_receipts ADD COLUMN reason text;

-- The learned id notation of each connection ('auto' setting), kept across restarts.
CREATE TABLE smsc_id_notations (
  connection text PRIMARY KEY,
  submit_radix text NOT NULL CHECK (submit_radix IN ('string', 'dec', 'hex')),
  receipt_radix text NOT NULL CHECK (receipt_radix IN ('string', 'dec', 'hex')),
  evidence text NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now()
);

-- The happy path writes no history rows: the log shows the accepted, submitted and done times, the
-- SMSC ids (message_parts) and the raw final receipt kept here. Events remain for everything else.
ALTER TABLE messages ADD COLUMN receipt_raw text;
