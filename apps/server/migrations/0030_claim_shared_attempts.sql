-- A claim whose messages are all on the same attempt (the usual case: every one on its first) sets
-- that number as one parameter, instead of looking each message's count up in a jsonb object.
--
-- The same change in the status transitions (status.repository.ts: a batch of receipts that all say
-- DELIVRD 000 sends them as scalars) took PostgreSQL's CPU per message in bench:peer from 381-391 to
-- 363-370 µs in alternating runs (embedded PostgreSQL 18). Mixed attempts (retries claimed with
-- first tries) keep the lookup by id, built only then.
CREATE OR REPLACE FUNCTION wren_claim(p_limit integer, p_max_priority smallint, p_worker text,
                                      p_lease_seconds integer, p_from text)
RETURNS TABLE (id uuid, account_id uuid, recipient text, sender text, body text, encoding text,
               priority smallint, attempts integer, validity_until timestamptz)
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  v_ids uuid[];
  v_attempts integer[];
  v_min integer;
  v_max integer;
BEGIN
  SELECT array_agg(l.message_id), array_agg(l.attempts), min(l.attempts), max(l.attempts)
    INTO v_ids, v_attempts, v_min, v_max
    FROM wren_lease_ready(p_limit, p_max_priority, p_worker, p_lease_seconds) AS l;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;
  IF v_min = v_max THEN
    RETURN QUERY EXECUTE
      'UPDATE messages m
          SET status = ''sending'', attempts = $2
        WHERE m.id = ANY($1) AND m.status = $3
    RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts,
              m.validity_until'
      USING v_ids, v_min, p_from;
  ELSE
    RETURN QUERY EXECUTE
      'UPDATE messages m
          SET status = ''sending'', attempts = ($2 ->> m.id::text)::int
        WHERE m.id = ANY($1) AND m.status = $3
    RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts,
              m.validity_until'
      USING v_ids,
            (SELECT jsonb_object_agg(u.i::text, u.a) FROM unnest(v_ids, v_attempts) AS u(i, a)),
            p_from;
  END IF;
END
$$;
