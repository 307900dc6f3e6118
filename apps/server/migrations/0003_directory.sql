-- Sender IDs, contact groups and contacts (with imports), saved messages (issue #6).

CREATE TABLE sender_ids (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  -- Normalised: digits only for numeric, trimmed for alphanumeric.
  value text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('alphanumeric', 'numeric')),
  purpose text NOT NULL,
  sample_message text NOT NULL,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'approved', 'rejected')),
  reason text,
  is_default boolean NOT NULL DEFAULT false CHECK (NOT is_default OR status = 'approved'),
  decided_at timestamptz,
  decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sender_ids_value_key ON sender_ids (account_id, lower(value));
CREATE UNIQUE INDEX sender_ids_default_key ON sender_ids (account_id) WHERE is_default;
-- The admin review queue, paginated by (created_at, id).
CREATE INDEX sender_ids_status_idx ON sender_ids (status, created_at, id);
CREATE INDEX sender_ids_created_idx ON sender_ids (created_at, id);

CREATE TABLE contact_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  -- Kept in step with the group's contacts in the same transaction as every insert and delete.
  contact_count integer NOT NULL DEFAULT 0 CHECK (contact_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_groups_name_key ON contact_groups (account_id, lower(name));

CREATE TABLE contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  group_id uuid NOT NULL REFERENCES contact_groups(id) ON DELETE CASCADE,
  phone text NOT NULL, -- E.164
  name text NOT NULL DEFAULT '',
  fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The import that added the contact, if any: tells in-file duplicates from existing contacts
  -- and lets a failed import be undone.
  import_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contacts_group_phone_key ON contacts (group_id, phone);
-- Keyset pagination: newest first, and by name.
CREATE INDEX contacts_group_created_idx ON contacts (account_id, group_id, created_at DESC, id DESC);
CREATE INDEX contacts_group_name_idx ON contacts (account_id, group_id, lower(name), id);

-- An uploaded file waiting for its column mapping, then the import's progress and result.
CREATE TABLE contact_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  group_id uuid NOT NULL REFERENCES contact_groups(id) ON DELETE CASCADE,
  file_name text NOT NULL,
  file_type text NOT NULL CHECK (file_type IN ('csv', 'xlsx')),
  file_size integer NOT NULL,
  -- The upload itself, base64-encoded (text moves 5-20x faster than bytea through PGlite and
  -- node-pg); cleared once the import completes.
  file_base64 text,
  -- How the file was read: delimiter, encoding, header row.
  options jsonb NOT NULL,
  columns jsonb NOT NULL,
  suggested_mapping jsonb NOT NULL,
  mapping jsonb,
  row_count_guess integer NOT NULL,
  status text NOT NULL DEFAULT 'uploaded' CHECK (status IN ('uploaded', 'running', 'completed', 'failed')),
  processed integer NOT NULL DEFAULT 0,
  inserted integer NOT NULL DEFAULT 0,
  invalid integer NOT NULL DEFAULT 0,
  duplicates integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- Touched after every batch; a running import with an old heartbeat was interrupted.
  heartbeat_at timestamptz
);
CREATE INDEX contact_imports_group_idx ON contact_imports (account_id, group_id, created_at DESC);

-- The rows an import skipped, for its downloadable report.
CREATE TABLE contact_import_issues (
  import_id uuid NOT NULL REFERENCES contact_imports(id) ON DELETE CASCADE,
  row_number integer NOT NULL,
  phone text NOT NULL,
  name text NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (import_id, row_number)
);

CREATE TABLE templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX templates_name_key ON templates (account_id, lower(name));
