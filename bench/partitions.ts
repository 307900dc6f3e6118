/**
 * Cost of a lookup by message id alone on the monthly partitions of `messages` (issue #17, 0016).
 * `WHERE id = …` cannot prune: the plan probes the primary-key index of every partition. This bench
 * starts Wren (migrations, real schema), creates 24 monthly partitions with rows in each, copies the
 * same rows to an unpartitioned table with the old primary key (id), and measures with
 * EXPLAIN (ANALYZE, SUMMARY) the planning and execution time of the statements that find messages by
 * id: the status transition's UPDATE … FROM unnest(ids) (dispatcher, receipts; status.repository.ts),
 * annotate()'s UPDATE, and the detail read SELECT … WHERE id = $1 (SMS log detail, /v1 GET), for
 * 1 and 50 ids. Each UPDATE is rolled back. Prints median and p99 per statement, partitioned vs not,
 * and the same statements with created_at known (what pruning would save).
 *
 *   npm run bench:partitions                                  (embedded PostgreSQL)
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run bench:partitions
 *   BENCH_PARTITION_MONTHS=24 BENCH_PARTITION_ROWS=20000 BENCH_PARTITION_RUNS=200
 */
import pg from 'pg';
import { embeddedDatabase, freshPostgres, percentile, signUp, startWren } from './lib/wren-process';

const MONTHS = Number(process.env.BENCH_PARTITION_MONTHS ?? 24);
const ROWS = Number(process.env.BENCH_PARTITION_ROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_PARTITION_RUNS ?? 200);
const PORT = 3900 + Math.floor(Math.random() * 90) * 3 + 1;
const BASE_DB = process.env.BENCH_DATABASE_URL;

interface Timing {
  planning: number[];
  execution: number[];
}

async function explain(client: pg.Client, text: string, values: unknown[], t: Timing, rollback: boolean) {
  if (rollback) await client.query('BEGIN');
  const { rows } = await client.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${text}`, values);
  if (rollback) await client.query('ROLLBACK');
  const plan = (rows[0] as { 'QUERY PLAN': { 'Planning Time': number; 'Execution Time': number }[] })[
    'QUERY PLAN'
  ][0]!;
  t.planning.push(plan['Planning Time'] * 1000);
  t.execution.push(plan['Execution Time'] * 1000);
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${percentile(s, 50).toFixed(0).padStart(6)} µs p50 ${percentile(s, 99).toFixed(0).padStart(6)} µs p99`;
};

async function main() {
  const db = BASE_DB ? await freshPostgres(BASE_DB, `wren_bench_part_${process.pid}`) : embeddedDatabase();
  const wren = await startWren({ ...db.env, CAPTCHA: 'false' }, PORT);
  const base = `http://127.0.0.1:${PORT}`;
  const client = new pg.Client({ connectionString: db.url });
  try {
    const a = await signUp(base);
    await client.connect();
    const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
      .rows[0]!.v;
    // The months before the ones 0016 created: as a server running for MONTHS months has them.
    await client.query(
      `DO $$ DECLARE m timestamptz; BEGIN
         FOR k IN 1..${MONTHS - 1} LOOP
           m := (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => k)) AT TIME ZONE 'UTC';
           EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 50)',
             'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'), m, m + interval '1 month');
         END LOOP; END $$`,
    );
    const t0 = performance.now();
    await client.query(
      `INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                             status, validity_until, created_at, submitted_at)
       SELECT $1::uuid, '+1212555' || lpad((i % 10000)::text, 4, '0'), 'Wren', 'Your code is ' || i, 'GSM-7', 1, 1,
              'USD', 'sent', now() + interval '1 day', t, t
         FROM generate_series(1, $2::int) AS i,
              LATERAL (SELECT date_trunc('month', now()) - make_interval(months => ${MONTHS - 1})
                              + (i::float8 / $2::int) * (now() - (date_trunc('month', now()) - make_interval(months => ${MONTHS - 1}))) AS t) ts`,
      [a.accountId, ROWS * MONTHS],
    );
    await client.query(`DROP TABLE IF EXISTS bench_messages_flat`);
    await client.query(
      `CREATE TABLE bench_messages_flat (LIKE messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS) WITH (fillfactor = 50)`,
    );
    await client.query(`INSERT INTO bench_messages_flat SELECT * FROM messages`);
    await client.query(`ALTER TABLE bench_messages_flat ADD PRIMARY KEY (id)`);
    await client.query(`CREATE INDEX ON bench_messages_flat (account_id, created_at DESC, id DESC)`);
    await client.query('VACUUM (ANALYZE) messages');
    await client.query('VACUUM (ANALYZE) bench_messages_flat');
    const parts = (
      await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'messages'::regclass`,
      )
    ).rows[0]!.n;
    console.log(
      `PostgreSQL ${version}: ${parts} partitions of messages (${MONTHS} months with rows, the months ahead, default), ` +
        `${(ROWS * MONTHS).toLocaleString('en-US')} rows; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${RUNS} runs per case`,
    );

    const ids = (await client.query<{ id: string; created_at: Date }>(`SELECT id, created_at FROM messages`))
      .rows;
    const pick = (k: number) => Array.from({ length: k }, () => ids[Math.floor(Math.random() * ids.length)]!);

    const cases: {
      name: string;
      sql: (table: string) => string;
      args: (rows: typeof ids) => unknown[];
      k: number;
      rollback: boolean;
    }[] = [];
    for (const k of [1, 50]) {
      cases.push({
        name: `transition UPDATE by id (${k})`,
        k,
        rollback: true,
        sql: (
          table,
        ) => `UPDATE ${table} m SET status = 'delivered', smsc_stat = COALESCE(v.smsc_stat, m.smsc_stat),
                                 error = COALESCE(v.error, m.error)
                            FROM (SELECT unnest($1::uuid[]) AS id, 'DELIVRD'::text AS smsc_stat, NULL::text AS error) v
                           WHERE m.id = v.id AND m.status IN ('sent')`,
        args: (rows) => [rows.map((r) => r.id)],
      });
      cases.push({
        name: `  … with created_at (${k})`,
        k,
        rollback: true,
        sql: (
          table,
        ) => `UPDATE ${table} m SET status = 'delivered', smsc_stat = COALESCE(v.smsc_stat, m.smsc_stat),
                                 error = COALESCE(v.error, m.error)
                            FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::timestamptz[]) AS created_at,
                                         'DELIVRD'::text AS smsc_stat, NULL::text AS error) v
                           WHERE m.id = v.id AND m.created_at = v.created_at AND m.status IN ('sent')`,
        args: (rows) => [rows.map((r) => r.id), rows.map((r) => r.created_at)],
      });
    }
    cases.push({
      name: 'annotate UPDATE by id (1)',
      k: 1,
      rollback: true,
      sql: (table) => `UPDATE ${table} m SET error = v.error
                         FROM (SELECT unnest($1::uuid[]) AS id, 'note'::text AS error) v WHERE m.id = v.id`,
      args: (rows) => [rows.map((r) => r.id)],
    });
    cases.push({
      name: 'detail SELECT WHERE id = $1',
      k: 1,
      rollback: false,
      sql: (table) => `SELECT * FROM ${table} WHERE id = $1 AND account_id = $2`,
      args: (rows) => [rows[0]!.id, a.accountId],
    });
    cases.push({
      name: '  … with created_at',
      k: 1,
      rollback: false,
      sql: (table) => `SELECT * FROM ${table} WHERE id = $1 AND created_at = $3 AND account_id = $2`,
      args: (rows) => [rows[0]!.id, a.accountId, rows[0]!.created_at],
    });

    for (const c of cases) {
      const out: Record<string, Timing> = {};
      for (const table of ['bench_messages_flat', 'messages']) {
        const t: Timing = { planning: [], execution: [] };
        for (let i = 0; i < 5; i++)
          await explain(client, c.sql(table), c.args(pick(c.k)), { planning: [], execution: [] }, c.rollback);
        for (let i = 0; i < RUNS; i++) await explain(client, c.sql(table), c.args(pick(c.k)), t, c.rollback);
        out[table] = t;
      }
      // As the server runs them: a named prepared statement (platform/statement-cache.ts), whose
      // generic plan PostgreSQL keeps after five executions; wall time of the statement alone.
      const prepared: Record<string, number[]> = {};
      for (const table of ['bench_messages_flat', 'messages']) {
        const name = `bench_${table}_${cases.indexOf(c)}`;
        const wall: number[] = [];
        for (let i = 0; i < RUNS + 10; i++) {
          if (c.rollback) await client.query('BEGIN');
          const t = performance.now();
          await client.query({ name, text: c.sql(table), values: c.args(pick(c.k)) });
          if (i >= 10) wall.push((performance.now() - t) * 1000);
          if (c.rollback) await client.query('ROLLBACK');
        }
        prepared[table] = wall;
      }
      const flat = out.bench_messages_flat!;
      const part = out.messages!;
      const med = (xs: number[]) =>
        percentile(
          [...xs].sort((x, y) => x - y),
          50,
        );
      const extra = med(part.planning) + med(part.execution) - med(flat.planning) - med(flat.execution);
      console.log(`${c.name}`);
      console.log(`  unpartitioned  planning ${fmt(flat.planning)} | execution ${fmt(flat.execution)}`);
      console.log(`  partitioned    planning ${fmt(part.planning)} | execution ${fmt(part.execution)}`);
      console.log(
        `  partitioned − unpartitioned (median planning + execution): ${extra.toFixed(0)} µs per statement`,
      );
      console.log(
        `  prepared (generic plan), round trip: unpartitioned ${fmt(prepared.bench_messages_flat!)} | partitioned ${fmt(prepared.messages!)}`,
      );
    }
  } finally {
    await client.end().catch(() => undefined);
    wren.kill('SIGTERM');
    await new Promise((r) => wren.once('exit', r));
    await db.drop();
  }
}

await main();
