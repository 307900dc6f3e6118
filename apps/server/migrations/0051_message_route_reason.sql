-- A routed message's decision (its one line: route, strategy, connection, why, cost) is kept on its
-- message_routes row, written in the statement that moves the message to `sent`, instead of as a
-- history event of its own: one row a message instead of two, and routed batches keep the
-- one-statement path (bench:pipeline BENCH_ROUTED=1). The operators' history shows it from here.
ALTER TABLE message_routes ADD COLUMN reason text NOT NULL DEFAULT '';
