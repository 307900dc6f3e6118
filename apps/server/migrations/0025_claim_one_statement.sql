-- A claim is one statement, so its transaction is as long as the statement and no longer.
--
-- It was a transaction of four round trips: BEGIN, the lease (wren_lease_ready, 0024), the messages
-- moved to `sending` by the leased ids, COMMIT. Each answer waited in the socket for a turn of the
-- worker's event loop, which under load takes tens of ms, and the transaction stayed open all that
-- time: bench:pipeline's pg_stat_activity samples (BENCH_XACT_SAMPLE=1) found it "idle in
-- transaction" at a mean age of 27 ms after the lease and 48 ms after the update, up to 156 ms.
-- While any transaction that began before an update is open, the page's dead row versions cannot be
-- pruned, so the next status update of a message on a full page is not HOT: it inserts into every
-- index of `messages`, the trigram GIN included (79 % HOT in that run, 92 % in bench:pg-floor).
--
-- Called on its own (autocommit), this function's transaction ends when the statement does, commit
-- included, before the answer is sent. The rows stay locked, as before, until then.
--
-- `p_from` is the status a claim moves from (`queued`: outcomes.repository.ts checks it against the
-- state table). The messages are moved by EXECUTE … USING: its parameters are known when it is planned, so only
-- the months of the claimed ids are planned (0018: an UPDATE … FROM the leased rows, or a cached
-- generic plan of `id = ANY($1)`, plans every monthly partition).
CREATE FUNCTION wren_claim(p_limit integer, p_max_priority smallint, p_worker text, p_lease_seconds integer,
                           p_from text)
RETURNS TABLE (id uuid, account_id uuid, recipient text, sender text, body text, encoding text,
               priority smallint, attempts integer, validity_until timestamptz)
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  v_ids uuid[];
  v_attempts jsonb;
BEGIN
  SELECT array_agg(l.message_id), jsonb_object_agg(l.message_id::text, l.attempts)
    INTO v_ids, v_attempts
    FROM wren_lease_ready(p_limit, p_max_priority, p_worker, p_lease_seconds) AS l;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY EXECUTE
    'UPDATE messages m
        SET status = ''sending'', attempts = ($2 ->> m.id::text)::int
      WHERE m.id = ANY($1) AND m.status = $3
  RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts,
            m.validity_until'
    USING v_ids, v_attempts, p_from;
END
$$;
