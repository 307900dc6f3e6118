import pg from 'pg';

interface TableCounts {
  ins: number;
  upd: number;
  hot: number;
  del: number;
}

/** Row writes per table from pg_stat_user_tables: snapshot before a run, then `report()` the delta. */
export async function tableWrites(url: string) {
  const read = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const r = await client.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
        `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del
           FROM pg_stat_user_tables`,
      );
      return new Map<string, TableCounts>(
        r.rows.map((row) => [
          row.relname,
          { ins: Number(row.ins), upd: Number(row.upd), hot: Number(row.hot), del: Number(row.del) },
        ]),
      );
    } finally {
      await client.end();
    }
  };
  /**
   * A backend publishes its counters when it goes idle, but at most once a second; one that has
   * just published waits up to 10 s (PGSTAT_IDLE_INTERVAL) before the next. Read after that.
   */
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 11_000));
    return read();
  };
  const before = await settled();
  return {
    /** Lines "table: n_tup_ins, n_tup_upd, n_tup_hot_upd (HOT %), n_tup_del" for tables written in the run. */
    async report(messages?: number): Promise<string[]> {
      const after = await settled();
      const lines: string[] = [];
      const per = (n: number) => (messages ? ` (${(n / messages).toFixed(2)}/msg)` : '');
      for (const [table, a] of [...after].sort(([x], [y]) => x.localeCompare(y))) {
        const b = before.get(table) ?? { ins: 0, upd: 0, hot: 0, del: 0 };
        const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, hot: a.hot - b.hot, del: a.del - b.del };
        if (!d.ins && !d.upd && !d.del) continue;
        const hotShare = d.upd ? ` (${((100 * d.hot) / d.upd).toFixed(0)}% HOT)` : '';
        lines.push(
          `  ${table}: n_tup_ins ${d.ins}${per(d.ins)}, n_tup_upd ${d.upd}${per(d.upd)}, ` +
            `n_tup_hot_upd ${d.hot}${hotShare}, n_tup_del ${d.del}`,
        );
      }
      return lines;
    },
  };
}

/**
 * BENCH_PG_SAMPLE=<ms>: every 100 ms while `running()`, prints statements running longer than <ms>
 * (200 when BENCH_PG_SAMPLE=1)
 * (with what they wait on), the backends autovacuum runs, and each checkpoint as it starts and
 * ends, stamped with seconds since `t0` (performance.now()), to find what holds up a run.
 */
export async function sampleSlowStatements(client: pg.Client, t0: number, running: () => boolean) {
  const seen = new Set<string>();
  const at = () => `+${((performance.now() - t0) / 1000).toFixed(1)} s`;
  let checkpointing = false;
  const slowMs = Number(process.env.BENCH_PG_SAMPLE) > 1 ? Number(process.env.BENCH_PG_SAMPLE) : 200;
  while (running()) {
    const r = await client.query<{ pid: number; ms: number; wait: string | null; q: string; type: string }>(
      `SELECT pid, extract(epoch FROM now() - query_start) * 1000 AS ms, backend_type AS type,
              wait_event_type || ':' || wait_event AS wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS q
         FROM pg_stat_activity
        WHERE (state = 'active' AND pid <> pg_backend_pid()
               AND (now() - query_start > make_interval(secs => $1 / 1000.0)
                    OR backend_type = 'autovacuum worker'))
           OR (backend_type = 'checkpointer' AND wait_event IS DISTINCT FROM 'CheckpointerMain')`,
      [slowMs],
    );
    const checkpointer = r.rows.find((row) => row.type === 'checkpointer');
    if (!!checkpointer !== checkpointing) {
      checkpointing = !checkpointing;
      console.log(
        `  [pg ${at()}] checkpoint ${checkpointing ? `running (${checkpointer?.wait ?? 'cpu'})` : 'done'}`,
      );
    }
    for (const row of r.rows) {
      if (row.type === 'checkpointer') continue;
      const key = `${row.pid}:${row.q}`;
      if (seen.has(key)) continue;
      seen.add(key);
      console.log(`  [pg ${at()}] ${Number(row.ms).toFixed(0)} ms ${row.wait ?? 'cpu'} ${row.q}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * BENCH_PG_STATEMENTS=1 (embedded PostgreSQL): the statements PostgreSQL spent its time on, from
 * pg_stat_statements. `EMBEDDED_PG_SETTINGS` (`pgStatementsSettings`) preloads the module; `start()`
 * resets its counters, `report(messages)` lists the statements by execution plus planning time per
 * message (wall time in the backend, so it includes waits for locks and the CPU).
 */
export const pgStatementsEnabled = process.env.BENCH_PG_STATEMENTS === '1';
export const pgStatementsSettings = {
  EMBEDDED_PG_SETTINGS: 'shared_preload_libraries=pg_stat_statements;pg_stat_statements.track_planning=on',
};

export async function statementTimes(url: string) {
  const query = async <R extends pg.QueryResultRow>(text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };
  await query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await query('SELECT pg_stat_statements_reset()');
  return {
    async report(messages: number, top = 20): Promise<string[]> {
      const rows = await query<{ calls: string; exec: number; plan: number; rows: string; q: string }>(
        `SELECT calls, total_exec_time AS exec, total_plan_time AS plan, rows,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 150) AS q
           FROM pg_stat_statements
          WHERE query NOT ILIKE '%pg_stat_statements%'
          ORDER BY total_exec_time + total_plan_time DESC LIMIT ${top}`,
      );
      const us = (ms: number) => ((ms * 1000) / messages).toFixed(1).padStart(6);
      const total = rows.reduce((s, r) => s + r.exec + r.plan, 0);
      return [
        `pg_stat_statements, top ${top} (µs per message: execution, planning; calls; rows), top total ${us(total)} µs:`,
        ...rows.map(
          (r) =>
            `  ${us(r.exec)} ${us(r.plan)} ${String(r.calls).padStart(7)} ${String(r.rows).padStart(7)}  ${r.q}`,
        ),
      ];
    },
  };
}

/**
 * BENCH_XACT_SAMPLE=1: how long Wren's write transactions stay open, from pg_stat_activity sampled
 * every `everyMs` on a connection of its own (`pid`: its backend, to leave out of PostgreSQL's CPU).
 * A write transaction holds its xid, and with it the horizon below which PostgreSQL may prune dead
 * row versions, until it ends: `report()` lists, by state and the last statement's start, the number
 * of samples and the mean and largest age of the transactions seen (time since BEGIN).
 */
export const xactSampleEnabled = process.env.BENCH_XACT_SAMPLE === '1';

export async function transactionAges(url: string, everyMs = 20) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const seen = new Map<string, { n: number; sum: number; max: number }>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await client.query<{ key: string; ms: number }>(
        `SELECT state || ' | ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS key,
                extract(epoch FROM now() - xact_start)::float * 1000 AS ms
           FROM pg_stat_activity
          WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND datname = current_database()`,
      );
      samples += 1;
      for (const r of res.rows) {
        const s = seen.get(r.key) ?? { n: 0, sum: 0, max: 0 };
        s.n += 1;
        s.sum += r.ms;
        s.max = Math.max(s.max, r.ms);
        seen.set(r.key, s);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    pid,
    async report(top = 12): Promise<string[]> {
      running = false;
      await loop;
      await client.end();
      const rows = [...seen].sort((a, b) => b[1].n - a[1].n).slice(0, top);
      return [
        `write transactions open (pg_stat_activity, ${samples} samples every ${everyMs} ms; samples, mean and max age since BEGIN):`,
        ...rows.map(
          ([key, s]) =>
            `  ${String(s.n).padStart(6)} ${(s.sum / s.n).toFixed(1).padStart(7)} ms ${s.max.toFixed(0).padStart(6)} ms  ${key}`,
        ),
      ];
    },
  };
}
