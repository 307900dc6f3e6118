-- A claim reads the ready queue in its index's order, stops at its limit, and leases the rows by
-- key, whatever the statistics say.
--
-- The queue's size swings from empty to tens of thousands of rows within seconds (a burst of API
-- sends, a campaign's batch), so its statistics are usually those of a much smaller queue. On them
-- the planner chose a bitmap scan of every ready row and a sort, then took the first rows: a claim
-- of 150 from a backlog of 8,940 read 15,740 index entries and sorted 8,940 rows (21.5 ms), and in
-- bench:pipeline (40,000 messages, 20 per request) that sort was 15 % of PostgreSQL's CPU while the
-- worker drained the backlog. The work grew with the backlog, not with the claim.
--
-- The lease that follows had the same trouble: on those statistics its join of the claimed rows
-- with the queue read the whole queue for them (a scan of the queue's primary key with the claimed
-- rows on the inner side: 5,000 rows read and 499,900 pairs compared for a claim of 100, 72 ms).
-- The claimed keys now come as one array, looked up through the primary key.
--
-- Run inside this function with sorts, sequential and bitmap scans, hash and merge joins disabled
-- (PostgreSQL 18 first avoids disabled steps, then compares costs), the only plan left is the one that fits any queue size: the ordered scan of send_queue_ready_idx
-- (priority, due_at), which reads rows in claim order and stops after `p_limit` rows it could lock,
-- then one primary-key lookup per claimed row. FOR UPDATE SKIP LOCKED keeps its meaning, and the
-- rows stay locked by the caller's transaction.
CREATE FUNCTION wren_lease_ready(p_limit integer, p_max_priority smallint, p_worker text, p_lease_seconds integer)
RETURNS TABLE (message_id uuid, attempts integer)
LANGUAGE sql VOLATILE
SET enable_sort = off
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
  WITH c AS MATERIALIZED (
    SELECT r.message_id FROM send_queue r
     WHERE r.leased_by IS NULL AND NOT r.scheduled AND r.due_at <= now()
       AND (p_max_priority IS NULL OR r.priority <= p_max_priority)
     ORDER BY r.priority, r.due_at
     LIMIT p_limit
     FOR UPDATE SKIP LOCKED)
  UPDATE send_queue q
     SET leased_by = p_worker, lease_until = now() + make_interval(secs => p_lease_seconds),
         attempts = q.attempts + 1
   WHERE q.message_id = ANY(ARRAY(SELECT message_id FROM c))
  RETURNING q.message_id, q.attempts
$$;
