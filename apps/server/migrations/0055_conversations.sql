-- Conversations (issue 40 item 1): one thread per account, remote handset and local number/sender.
-- A row is the thread's summary (last message, unread count, archive, assignee); the messages
-- themselves stay in messages (outgoing) and inbound_messages (incoming) and are read from there.
-- A thread starts with an inbound message or a reply written in the Conversations screen, so the
-- send path of bulk and API traffic writes nothing here.
-- remote: the handset in E.164 (+…). local: the number or sender the handset wrote to, digits
-- without + when numeric (as numeric sender IDs are stored), else as written.
CREATE TABLE conversations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  remote text NOT NULL,
  local text NOT NULL,
  last_at timestamptz NOT NULL,
  last_text text NOT NULL,
  last_direction text NOT NULL CHECK (last_direction IN ('in', 'out')),
  unread integer NOT NULL DEFAULT 0 CHECK (unread >= 0),
  archived_at timestamptz,
  assigned_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, remote, local)
);
-- The thread list: newest first, open or archived, a page at a time (keyset on last_at, id).
CREATE INDEX conversations_list_idx ON conversations (account_id, (archived_at IS NULL), last_at DESC, id DESC);
-- A thread's incoming side.
CREATE INDEX inbound_messages_sender_idx ON inbound_messages (account_id, sender, received_at DESC);
