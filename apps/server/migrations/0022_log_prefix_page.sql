-- One page of the SMS log filtered by a recipient prefix of at least five characters (the head of
-- messages_log_head_idx, 0021), below a cursor, in ONE call: the server used to run it as a
-- transaction of six round trips (BEGIN, a planner setting, the probe, another setting, a statement
-- per look-back window, COMMIT), each a wake-up of both processes (bench:log, 10M messages, the
-- 1,000-number prefix '+14155550': p50 5.5 ms, p99 10.7 ms over HTTP). The caller passes the values
-- it derives from the prefix (the LIKE pattern, the range of the recipient index, the head) and
-- the look-back windows; the constants and the rules stay in messages.repository.ts.
--
-- The statements run on generic plans (planned once per connection: planned for each page they
-- cost 2-3 ms across the monthly partitions and their indexes, more than they run), as the
-- function's SET clause says. The function scopes every statement to p_account.
--
-- 1. The probe (p_probe_cap > 0): at most p_probe_cap + 1 matches read from the recipient index
--    alone. If there are no more than p_probe_cap, they are every match: the newest p_limit are
--    the page, their rows read by id.
-- 2. Otherwise (or at once, p_probe_cap = 0: a prefix of exactly five characters, every entry of
--    its head matches), the head index is walked in the keyset's order, testing the number it
--    keeps, one look-back window after another (p_windows: the lower bounds, newest first, the last
--    '-infinity'). The windows are disjoint: each starts where the last ended and adds its rows
--    until the page is full, so no entry is read twice. A window's lower bound is an Index Cond,
--    so the monthly partitions outside it stop at once. enable_sort is off for the walk: the
--    generic estimate of `LIKE $n` is a few rows, for which reading every match of the window and
--    sorting them looks as cheap as the walk.
CREATE FUNCTION wren_log_prefix_page(
  p_account uuid,
  p_head text,
  p_pattern text,
  p_low text,
  p_high text,
  p_before_at timestamptz,
  p_before_id uuid,
  p_windows timestamptz[],
  p_limit integer,
  p_probe_cap integer
) RETURNS SETOF messages
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET enable_sort = on
AS $$
DECLARE
  -- The cursor; the first page's is above every row.
  v_at timestamptz := coalesce(p_before_at, 'infinity');
  v_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  v_matches bigint;
  v_keys uuid[];
  v_left integer := p_limit;
  v_from timestamptz;
  v_got bigint;
BEGIN
  IF p_probe_cap > 0 THEN
    SELECT count(*), (array_agg(s.id ORDER BY s.created_at DESC, s.id DESC))[1:p_limit]
      INTO v_matches, v_keys
      FROM (SELECT m.created_at, m.id
              FROM messages m
             WHERE m.account_id = p_account
               AND m.recipient ~>=~ p_low AND m.recipient ~<~ p_high
               -- Tested on each entry, never an index condition (see recipientProbe).
               AND ((m.created_at, m.id) < (v_at, v_id)) IS TRUE
             LIMIT p_probe_cap + 1) s;
    IF v_matches <= p_probe_cap THEN
      RETURN QUERY
        SELECT m.*
          FROM unnest(v_keys) WITH ORDINALITY AS k (id, n)
          JOIN messages m ON m.id = k.id
         WHERE m.account_id = p_account
         ORDER BY k.n;
      RETURN;
    END IF;
  END IF;
  -- Restored at the function's exit (its SET clause names the setting).
  PERFORM set_config('enable_sort', 'off', true);
  FOREACH v_from IN ARRAY p_windows LOOP
    RETURN QUERY
      SELECT m.*
        FROM (SELECT w.created_at, w.id
                FROM messages w
               WHERE w.account_id = p_account
                 AND left(w.recipient, 5) = p_head
                 AND w.recipient LIKE p_pattern
                 AND w.created_at >= v_from
                 AND (w.created_at, w.id) < (v_at, v_id)
               ORDER BY w.created_at DESC, w.id DESC
               LIMIT v_left) k
        JOIN messages m ON m.id = k.id
       WHERE m.account_id = p_account
       ORDER BY k.created_at DESC, k.id DESC;
    GET DIAGNOSTICS v_got = ROW_COUNT;
    v_left := v_left - v_got;
    EXIT WHEN v_left <= 0;
    -- The next window ends where this one began: (created_at, id) < (v_from, the least uuid).
    v_at := v_from;
    v_id := '00000000-0000-0000-0000-000000000000';
  END LOOP;
END
$$;
