-- Issue #12: a check by phone number decides in its one statement. The code's hash bound to the
-- service and the number (HMAC of "<service id>:<E.164>:<code>" with the code key) can be computed
-- before the row is found, so the statement that takes the attempt also approves the code, or
-- marks the last wrong attempt, instead of a second round trip. `code_hash` (bound to the
-- verification's id) stays for checks by id. Rows sent before this migration have none: their
-- checks by number compare in Wren as before, until they expire (an hour at most).
ALTER TABLE otp_verifications ADD COLUMN recipient_code_hash bytea;
