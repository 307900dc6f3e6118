-- The Socket.IO PostgreSQL adapter (@socket.io/postgres-adapter) fans hub pushes out across nodes
-- with NOTIFY. Payloads over NOTIFY's 8000-byte limit, or with binary data, travel through this
-- table, which the adapter does not create itself. It deletes rows older than its cleanup interval.
CREATE TABLE socket_io_attachments (
  id bigserial PRIMARY KEY,
  created_at timestamptz DEFAULT now(),
  payload bytea
);
