-- A parked receipt keeps the `submit date:` of its text (issue 45): when it is matched again, the
-- part it lands on must have been sent about then (modules/dlr/receipt-dates.ts), as on its arrival.
-- Null for receipts parked before this column, and for receipts whose text has no submit date.
ALTER TABLE parked_receipts ADD COLUMN submit_at timestamptz;
