-- The API key that sent an OTP code (POST /v1/otp/:serviceId/send with a key; null for the console's
-- session and for codes sent before this migration), so a key's report counts its OTP messages and
-- their cost as well as its /v1/messages sends. OTP messages are not put in api_messages: that table
-- drives the status webhooks of /v1 sends (an OTP message's final status goes to the account's
-- webhook URL, as before). A deleted key leaves its codes, unattributed.
ALTER TABLE otp_verifications ADD COLUMN api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL;
-- The report's lookup: a key's codes since the start of its window (and the key's ON DELETE check).
CREATE INDEX otp_verifications_api_key_idx ON otp_verifications (api_key_id, created_at)
  WHERE api_key_id IS NOT NULL;
