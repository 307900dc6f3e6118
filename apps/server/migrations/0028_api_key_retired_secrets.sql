-- The secrets a key had before it was rotated (prefix and hash only, as for the live secret), so a
-- call with a rotated secret is told `key_revoked` ("rotated on …, use the new secret") rather than
-- `key_invalid`, which reads as a typo. Kept as long as the key; looked up only when the prefix
-- matches no live key.
CREATE TABLE api_key_retired_secrets (
  prefix text PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  secret_hash bytea NOT NULL,
  retired_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX api_key_retired_secrets_key_idx ON api_key_retired_secrets (api_key_id);
