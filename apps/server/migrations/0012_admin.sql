-- The operator console (issue #16): account locks and limits, an append-only audit log with who did
-- what to which resource, worker heartbeats with their gateway status, and operator pauses of SMPP
-- connections.

-- An operator lock: the account's users cannot sign in and their sessions are revoked.
ALTER TABLE accounts ADD COLUMN locked_at timestamptz;
ALTER TABLE accounts ADD COLUMN locked_reason text;
-- Per-account limits (null: none of its own).
ALTER TABLE accounts ADD COLUMN max_per_second integer CHECK (max_per_second IS NULL OR max_per_second > 0);
ALTER TABLE accounts ADD COLUMN daily_cap integer CHECK (daily_cap IS NULL OR daily_cap >= 0);
ALTER TABLE accounts ADD COLUMN allowed_countries text[];
-- The accounts list pages newest first.
CREATE INDEX accounts_created_idx ON accounts (created_at DESC, id DESC);
CREATE INDEX sessions_user_last_used_idx ON sessions (user_id, last_used_at DESC);

-- Who did it (an operator acting on another account, or the user), to what.
ALTER TABLE audit_log ADD COLUMN actor_user_id uuid;
ALTER TABLE audit_log ADD COLUMN resource_type text;
ALTER TABLE audit_log ADD COLUMN resource_id text;
CREATE INDEX audit_log_kind_idx ON audit_log (kind, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, id DESC) WHERE actor_user_id IS NOT NULL;

-- Append-only: no UPDATE, DELETE or TRUNCATE. The one update allowed is the foreign key's own
-- ON DELETE SET NULL of user_id (a deleted user), which changes nothing else.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.user_id IS NULL AND OLD.user_id IS NOT NULL
     AND (to_jsonb(NEW) - 'user_id') = (to_jsonb(OLD) - 'user_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- Throughput per minute reads the last half hour of events: a BRIN index costs writes almost nothing.
CREATE INDEX message_events_created_brin ON message_events USING brin (created_at);

-- Every worker writes its heartbeat and its gateway's status here every 2 s.
CREATE TABLE worker_heartbeats (
  worker_id text PRIMARY KEY,
  role text NOT NULL,
  started_at timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  status jsonb NOT NULL DEFAULT '{}'
);

-- Connections an operator paused: workers stop submitting through them (binds stay up for receipts).
CREATE TABLE smsc_connection_controls (
  name text PRIMARY KEY,
  paused boolean NOT NULL,
  reason text,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now()
);
