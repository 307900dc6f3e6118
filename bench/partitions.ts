/**
 * Cost of the statements that find messages by id alone, on `messages` partitioned by month on its
 * UUIDv7 id (issue #17, migration 0018), against an unpartitioned table with the same rows.
 *
 * Starts Wren once (migrations: the real functions and triggers), then builds three copies of the
 * messages table (plus a send_queue each) in their own schemas, with the same rows spread over
 * BENCH_PARTITION_MONTHS months (ids made at their created_at, wren_uuidv7):
 *   flat  unpartitioned, primary key (id)
 *   p6    6 monthly partitions (the months with rows beyond them land in the legacy DEFAULT partition)
 *   p28   28 monthly partitions (about a year ahead and behind) + the legacy DEFAULT partition
 * Every copy has the primary key, the log index and the row triggers of `messages`.
 *
 * Statements, as the server sends them (status.repository.ts, outcomes.repository.ts,
 * messages.repository.ts):
 *   claim (1, 50)                the dispatcher's claim: lease send_queue rows, UPDATE messages FROM them
 *   transition UPDATE (1, 50)    status transition by ids (receipts: 1 per receipt; dispatcher: a batch)
 *   receipt transition (1)       sent → delivered with the receipt's stat and raw text
 *   API read                     SELECT * WHERE account_id = $1 AND id = $2 (SMS log detail, GET /v1)
 * The 50 ids are from the latest month (a batch of work in flight); "spread" takes them from every month.
 * For each: EXPLAIN (ANALYZE, SUMMARY) planning + execution time with the values (custom plan),
 * the number of partitions the plan touches, and the round trip as the server runs it: a statement
 * with an array or LIMIT parameter unnamed (planned each time), any other named (PostgreSQL keeps a
 * generic plan after 5 runs). Updates are rolled back.
 *
 *   npm run bench:partitions                                  (embedded PostgreSQL)
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run bench:partitions
 *   BENCH_PARTITION_MONTHS=28 BENCH_PARTITION_ROWS=10000 BENCH_PARTITION_RUNS=300
 */
import pg from 'pg';
import { embeddedDatabase, freshPostgres, percentile, startWren } from './lib/wren-process';

const MONTHS = Number(process.env.BENCH_PARTITION_MONTHS ?? 28);
const ROWS = Number(process.env.BENCH_PARTITION_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_PARTITION_RUNS ?? 300);
const PORT = 3900 + Math.floor(Math.random() * 90) * 3 + 1;
const BASE_DB = process.env.BENCH_DATABASE_URL;
const ACCOUNT = '00000000-0000-4000-8000-00000000be7c';

const LAYOUTS = [
  { schema: 'bench_flat', partitions: 0 },
  { schema: 'bench_p6', partitions: 6 },
  { schema: 'bench_p28', partitions: 28 },
] as const;

const med = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const p99 = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    99,
  );

/** Month start (UTC) `k` months after the current month. */
const month = (k: number) => {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + k, 1));
};

async function build(client: pg.Client, schema: string, partitions: number) {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  const like = `(LIKE public.messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`;
  if (partitions === 0) {
    await client.query(`CREATE TABLE ${schema}.messages ${like} WITH (fillfactor = 50)`);
  } else {
    await client.query(`CREATE TABLE ${schema}.messages ${like} PARTITION BY RANGE (id)`);
    await client.query(
      `CREATE TABLE ${schema}.messages_legacy PARTITION OF ${schema}.messages DEFAULT WITH (fillfactor = 50)`,
    );
    // The newest months: the current one, 3 ahead, the rest behind.
    for (let k = 3; k > 3 - partitions; k--) {
      const from = month(k);
      const to = month(k + 1);
      await client.query(
        `CREATE TABLE ${schema}.messages_m${k < 0 ? `b${-k}` : k} PARTITION OF ${schema}.messages
           FOR VALUES FROM (wren_uuidv7_floor('${from.toISOString()}')) TO (wren_uuidv7_floor('${to.toISOString()}'))
           WITH (fillfactor = 50)`,
      );
    }
  }
  await client.query(`INSERT INTO ${schema}.messages SELECT * FROM bench_rows`);
  await client.query(`ALTER TABLE ${schema}.messages ADD PRIMARY KEY (id)`);
  await client.query(`CREATE INDEX ON ${schema}.messages (account_id, created_at DESC, id DESC)`);
  for (const t of [
    `AFTER UPDATE OF status ON ${schema}.messages FOR EACH ROW
       WHEN (NEW.status IN ('undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown')
             AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION public.record_message_outcome()`,
    `AFTER UPDATE OF status ON ${schema}.messages FOR EACH ROW
       WHEN (NEW.done_at IS NOT NULL AND OLD.done_at IS NULL) EXECUTE FUNCTION public.queue_status_webhook()`,
  ])
    await client.query(`CREATE TRIGGER t_${Math.random().toString(36).slice(2, 8)} ${t}`);
  await client.query(`CREATE TABLE ${schema}.send_queue (LIKE public.send_queue INCLUDING ALL)`);
  await client.query(`VACUUM (ANALYZE) ${schema}.messages`);
}

interface Case {
  name: string;
  k: number;
  spread?: boolean;
  /** Rows set to this status (and queued for the claim) inside the measured transaction. */
  setup?: (ids: string[]) => { text: string; values: unknown[] }[];
  /** The statements measured (their times added up). */
  steps: { text: string; values: (ids: string[]) => unknown[] }[];
}

const transitionSql = (prune: boolean) => `
    WITH moved AS (
      UPDATE messages m SET status = 'delivered', smsc_stat = COALESCE(v.smsc_stat, m.smsc_stat),
             smsc_err = COALESCE(v.smsc_err, m.smsc_err), receipt_raw = COALESCE(v.receipt_raw, m.receipt_raw),
             receipt_due_at = COALESCE(now() + make_interval(mins => v.receipt_minutes), m.receipt_due_at),
             error = COALESCE(v.error, m.error), done_at = now()
        FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::text[]) AS smsc_stat, unnest($3::text[]) AS smsc_err,
                     unnest($4::text[]) AS receipt_raw, unnest($5::int[]) AS receipt_minutes,
                     unnest($6::text[]) AS error) v
       WHERE m.id = v.id AND ${prune ? 'm.id = ANY($1::uuid[]) AND ' : ''}m.status IN ('sent', 'sending')
   RETURNING m.id, m.account_id, m.campaign_id, m.price_minor),
    queue AS (DELETE FROM send_queue WHERE message_id IN (SELECT id FROM moved))
    SELECT * FROM moved`;

const transitionValues = (receipt: boolean) => (ids: string[]) => [
  ids,
  ids.map(() => (receipt ? 'DELIVRD' : null)),
  ids.map(() => (receipt ? '000' : null)),
  ids.map(() => (receipt ? 'id:1 sub:001 dlvrd:001 stat:DELIVRD err:000' : null)),
  ids.map(() => null),
  ids.map(() => null),
];

const claimSql = `
    WITH c AS MATERIALIZED (
      SELECT message_id FROM send_queue
       WHERE leased_by IS NULL AND NOT scheduled AND due_at <= now()
       ORDER BY priority, due_at
       LIMIT $1
       FOR UPDATE SKIP LOCKED),
    leased AS (
      UPDATE send_queue q
         SET leased_by = 'bench', lease_until = now() + make_interval(secs => 60), attempts = q.attempts + 1
        FROM c
       WHERE q.message_id = c.message_id
   RETURNING q.message_id, q.attempts)
    UPDATE messages m
       SET status = 'sending', attempts = l.attempts
      FROM leased l
     WHERE m.id = l.message_id AND m.status = 'queued'
 RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts, m.validity_until`;

/** The claim in two statements, as Wren runs it: lease (ids returned; migration 0024), then the messages by those ids. */
const leaseSql = `SELECT message_id, attempts FROM wren_lease_ready($1::int, NULL::smallint, 'bench', 60)`;
const claimByIdsSql = `
    UPDATE messages m
       SET status = 'sending', attempts = ($2::jsonb ->> m.id::text)::int
     WHERE m.id = ANY($1::uuid[]) AND m.status = 'queued'
 RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts, m.validity_until`;

const queued = (ids: string[]) => [
  { text: `UPDATE messages SET status = 'queued' WHERE id = ANY($1::uuid[])`, values: [ids] },
  {
    text: `INSERT INTO send_queue (message_id, priority, due_at, scheduled, validity_until)
           SELECT unnest($1::uuid[]), 1, now() - interval '1 second', false, now() + interval '1 day'`,
    values: [ids],
  },
];
const sent = (ids: string[]) => [
  { text: `UPDATE messages SET status = 'sent' WHERE id = ANY($1::uuid[])`, values: [ids] },
];

const CASES: Case[] = [
  ...[1, 50].flatMap((k): Case[] => [
    {
      name: `claim (${k}), one statement`,
      k,
      setup: queued,
      steps: [{ text: claimSql, values: (ids) => [ids.length] }],
    },
    {
      name: `claim (${k}), lease + by ids`,
      k,
      setup: queued,
      steps: [
        { text: leaseSql, values: (ids) => [ids.length] },
        {
          text: claimByIdsSql,
          values: (ids) => [ids, JSON.stringify(Object.fromEntries(ids.map((id) => [id, 1])))],
        },
      ],
    },
  ]),
  ...[
    { k: 1, spread: false },
    { k: 50, spread: false },
    { k: 50, spread: true },
  ].flatMap(({ k, spread }): Case[] =>
    [false, true].map((prune) => ({
      name: `transition (${k}${spread ? ', spread' : ''})${prune ? ' + id = ANY' : ''}`,
      k,
      spread,
      setup: sent,
      steps: [{ text: transitionSql(prune), values: transitionValues(k === 1) }],
    })),
  ),
  {
    name: 'API read by id',
    k: 1,
    steps: [
      {
        text: `select * from "messages" where "account_id" = $1 and "id" = $2`,
        values: (ids) => [ACCOUNT, ids[0]],
      },
    ],
  },
];

interface Result {
  plan: number[];
  exec: number[];
  trip: number[];
  partitions: number;
}

/** How many partitions (relations named messages*) a plan's scans touch. */
function countScans(plan: unknown): number {
  const seen = new Set<string>();
  const walk = (n: Record<string, unknown>) => {
    const rel = n['Relation Name'];
    if (typeof rel === 'string' && rel.startsWith('messages') && n['Node Type'] !== 'ModifyTable') {
      if (n['Actual Loops'] !== 0) seen.add(rel);
    }
    for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(c);
  };
  walk(plan as Record<string, unknown>);
  return seen.size;
}

async function main() {
  const db = BASE_DB ? await freshPostgres(BASE_DB, `wren_bench_part_${process.pid}`) : embeddedDatabase();
  const wren = await startWren({ ...db.env, CAPTCHA: 'false' }, PORT);
  const clients: pg.Client[] = [];
  try {
    const admin = new pg.Client({ connectionString: db.url });
    clients.push(admin);
    await admin.connect();
    const version = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
      .rows[0]!.v;
    await admin.query(
      `INSERT INTO accounts (id, name) VALUES ('${ACCOUNT}', 'bench') ON CONFLICT DO NOTHING`,
    );
    const t0 = performance.now();
    // The rows: MONTHS months up to now, ids made at their created_at.
    await admin.query(
      `CREATE TABLE bench_rows AS
       SELECT wren_uuidv7(x.created_at) AS id, x.* FROM (
         SELECT '${ACCOUNT}'::uuid AS account_id, NULL::uuid AS campaign_id, NULL::uuid AS user_id,
                '+1212555' || lpad((i % 10000)::text, 4, '0') AS recipient, 'Wren' AS sender,
                'Your code is ' || i AS body, 'GSM-7' AS encoding, 1 AS segments, 1 AS price_minor,
                'USD'::char(3) AS currency, 'delivered' AS status, 1::smallint AS priority, 1 AS attempts,
                t AS next_attempt_at, NULL::timestamptz AS lease_until, NULL AS leased_by,
                NULL::timestamptz AS scheduled_at, NULL AS timezone, t + interval '1 day' AS validity_until,
                'simulator' AS connection, 1 AS parts_done, 'DELIVRD' AS smsc_stat, '000' AS smsc_err,
                NULL AS error, false AS refunded, NULL AS client_ref, t::timestamptz(3) AS created_at,
                t AS submitted_at, t AS done_at, NULL AS receipt_raw, NULL::timestamptz AS receipt_due_at
           FROM generate_series(1, $1::int) AS i,
                LATERAL (SELECT now() - make_interval(secs => (1 - i::float8 / $1::int) * ${MONTHS} * 30 * 86400) AS t) ts
       ) x`,
      [ROWS * MONTHS],
    );
    for (const l of LAYOUTS) await build(admin, l.schema, l.partitions);
    const ids = (await admin.query<{ id: string }>(`SELECT id FROM bench_rows ORDER BY id`)).rows.map(
      (r) => r.id,
    );
    const latest = ids.slice(-ROWS);
    console.log(
      `PostgreSQL ${version}: ${(ROWS * MONTHS).toLocaleString('en-US')} messages over ${MONTHS} months, ` +
        `copies: unpartitioned, 6 and 28 monthly partitions (+ legacy default); built in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s; ${RUNS} runs per case`,
    );

    const pick = (k: number, spread = false) => {
      const from = spread ? ids : latest;
      const out = new Set<string>();
      while (out.size < k) out.add(from[Math.floor(Math.random() * from.length)]!);
      return [...out];
    };

    const table: string[][] = [];
    for (const c of CASES) {
      const results: Record<string, Result> = {};
      for (const l of LAYOUTS) {
        const client = new pg.Client({ connectionString: db.url });
        clients.push(client);
        await client.connect();
        await client.query(`SET search_path = ${l.schema}, public`);
        const r: Result = { plan: [], exec: [], trip: [], partitions: 0 };
        // As the server runs it (platform/statement-cache.ts): named unless it has an array or LIMIT parameter.
        const probe = pick(c.k);
        const named = c.steps.map(
          (st) => !/\blimit\s+\$\d/i.test(st.text) && !st.values(probe).some(Array.isArray),
        );
        for (let i = 0; i < RUNS + 10; i++) {
          const chosen = pick(c.k, c.spread);
          await client.query('BEGIN');
          for (const s of c.setup?.(chosen) ?? []) await client.query(s.text, s.values);
          if (i % 2 === 0) {
            let plan = 0;
            let exec = 0;
            for (const st of c.steps) {
              const { rows } = await client.query(
                `EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${st.text}`,
                st.values(chosen),
              );
              const out = (rows[0] as { 'QUERY PLAN': Record<string, unknown>[] })['QUERY PLAN'][0]!;
              plan += (out['Planning Time'] as number) * 1000;
              exec += (out['Execution Time'] as number) * 1000;
              r.partitions = Math.max(r.partitions, countScans(out.Plan));
            }
            if (i >= 10) {
              r.plan.push(plan);
              r.exec.push(exec);
            }
          } else {
            const t = performance.now();
            for (const [j, st] of c.steps.entries()) {
              if (named[j]) {
                await client.query({
                  name: `bench_${CASES.indexOf(c)}_${j}`,
                  text: st.text,
                  values: st.values(chosen),
                });
              } else {
                await client.query(st.text, st.values(chosen));
              }
            }
            if (i >= 10) r.trip.push((performance.now() - t) * 1000);
          }
          await client.query('ROLLBACK');
        }
        results[l.schema] = r;
        await client.end();
      }
      const flat = results.bench_flat!;
      const cost = (r: Result) => med(r.plan) + med(r.exec);
      for (const l of LAYOUTS) {
        const r = results[l.schema]!;
        table.push([
          l === LAYOUTS[0] ? c.name : '',
          l.partitions === 0 ? 'unpartitioned' : `${l.partitions} months`,
          String(r.partitions),
          med(r.plan).toFixed(0),
          med(r.exec).toFixed(0),
          l.partitions === 0
            ? ''
            : `${cost(r) - cost(flat) >= 0 ? '+' : ''}${(cost(r) - cost(flat)).toFixed(0)}`,
          `${med(r.trip).toFixed(0)} / ${p99(r.trip).toFixed(0)}`,
          l.partitions === 0
            ? ''
            : `${med(r.trip) - med(flat.trip) >= 0 ? '+' : ''}${(med(r.trip) - med(flat.trip)).toFixed(0)}`,
        ]);
      }
    }
    const head = [
      'statement',
      'messages',
      'scanned',
      'plan µs',
      'exec µs',
      'Δ plan+exec',
      'round trip p50/p99 µs',
      'Δ trip p50',
    ];
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    const line = (row: string[]) => `| ${row.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(line(head));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const row of table) console.log(line(row));
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
    wren.kill('SIGTERM');
    await new Promise((r) => wren.once('exit', r));
    await db.drop();
  }
}

await main();
