-- Carrier connections in the database (issue 38 item 1). Operators add, edit, drain and remove them
-- in the admin console while Wren runs; every worker reads smsc_connections_version at each status
-- report (1 s) and applies a change: new connections are bound, changed ones are rebound with their
-- new settings, removed ones closed once their submits in flight are answered.
-- origin 'env': seeded from SMSC_CONNECTIONS / SMSC_HOST, and kept in step with the environment on
-- each worker start until an operator edits it ('console' from then on).
-- settings: host, port, tls, binds, window, … as the console writes them (contracts/connections.ts).
-- password_enc: the SMPP password, AES-256-GCM under a key derived from the server secret.
-- draining: no new submits go through it; its binds stay up for receipts and MO.
CREATE TABLE smsc_connections (
  name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$'),
  origin text NOT NULL CHECK (origin IN ('env', 'console')),
  settings jsonb NOT NULL,
  password_enc text NOT NULL,
  draining boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid
);

CREATE TABLE smsc_connections_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  version bigint NOT NULL
);
INSERT INTO smsc_connections_version VALUES (true, 0);
