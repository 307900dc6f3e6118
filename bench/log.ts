/**
 * SMS log benchmark at a year's scale: starts Wren (`wren start`, real HTTP API), signs up two
 * accounts, seeds N messages for the first and N/10 for the second with SQL (one INSERT … SELECT
 * generate_series each, spread over a year), then measures the SMS log through HTTP: the first
 * page, a page 99 % deep (cursor), each filter, text search, and CSV export rows/s. Prints per case
 * its first request's time and p50/p99 of the next ones, and PostgreSQL's idle CPU with the seeded
 * table (maintenance passes running; BENCH_LOG_IDLE_SECONDS, default 60, after BENCH_LOG_IDLE_SETTLE_SECONDS,
 * default 20), by PostgreSQL process.
 *
 *   npm run bench:log                                   (default: 1,000,000 messages, embedded PostgreSQL)
 *   BENCH_LOG_MESSAGES=10000000 npm run bench:log       (the full size of issue #17)
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run bench:log   (external PostgreSQL)
 *   BENCH_LOG_RUNS=30                                   (requests per case, default 20)
 *   BENCH_LOG_ONLY=export                               (only the CSV exports: 7, 30, 90 and 180 days)
 *   BENCH_LOG_KEEP=1 with BENCH_DATABASE_URL            (keeps the seeded database for EXPLAIN; prints its URL)
 *   BENCH_ROLE=api                                      (an API node alone: no worker passes alongside)
 *   BENCH_LOG_WARMUP=5                                  (untimed rounds of every case before the timed ones)
 *
 * Beside each case: the client's GC pauses that overlapped a timed request, the server's GC (total
 * ms / pauses / pauses over 10 ms, from its /metrics) and its event loop's longest delay meanwhile.
 */
import { Agent, request } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import {
  cpuDiff,
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  percentile,
  signUp,
  startWren,
} from './lib/wren-process';

const N = Number(process.env.BENCH_LOG_MESSAGES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_LOG_RUNS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_LOG_IDLE_SECONDS ?? 60);
const IDLE_SETTLE_SECONDS = Number(process.env.BENCH_LOG_IDLE_SETTLE_SECONDS ?? 20);
const PORT = 3900 + Math.floor(Math.random() * 90) * 3;
const BASE_DB = process.env.BENCH_DATABASE_URL;
const EXPORT_ONLY = process.env.BENCH_LOG_ONLY === 'export';
/** Rounds of every case before any is timed (a server that has run for a while: V8 has optimised its paths). */
const WARMUP = Number(process.env.BENCH_LOG_WARMUP ?? 0);
const METRICS_TOKEN = 'bench-log-metrics-0123456789';

/**
 * The server's own garbage collection and event-loop delay so far, from its /metrics (prom-client's
 * default metrics): GC pauses in total, their count, and those over 10 ms; the event loop's max
 * delay since the last scrape (prom-client resets it on each scrape).
 */
async function serverRuntime(agent: Agent, base: string) {
  const res = await get(agent, `${base}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
  if (res.status !== 200) throw new Error(`/metrics: ${res.status}`);
  let gcS = 0;
  let gcs = 0;
  let under10 = 0;
  let lagMaxS = 0;
  for (const line of res.text.split('\n')) {
    const [name, value] = line.split(' ');
    if (!name || value === undefined) continue;
    if (name.startsWith('wren_nodejs_gc_duration_seconds_sum')) gcS += Number(value);
    else if (name.startsWith('wren_nodejs_gc_duration_seconds_count')) gcs += Number(value);
    else if (name.startsWith('wren_nodejs_gc_duration_seconds_bucket') && name.includes('le="0.01"'))
      under10 += Number(value);
    else if (name === 'wren_nodejs_eventloop_lag_max_seconds') lagMaxS = Number(value);
  }
  return { gcMs: gcS * 1000, gcs, over10: gcs - under10, lagMaxMs: lagMaxS * 1000 };
}

/**
 * Seeds `count` messages for an account over the year before now, newest last: 100,000 distinct US
 * numbers (+1 {10 area codes} 555 dddd), a few body templates, and the status mix of the simulator's
 * default (92 % delivered, 5 % undelivered, 2 % expired, 1 % rejected; none failed).
 */
/**
 * The monthly partitions of the seeded year (migration 0018 makes this month and 3 ahead): each
 * seeded message gets the UUIDv7 id of its created_at, so it lands in its own month, as the
 * messages of a year of real traffic do.
 */
async function createYearPartitions(client: pg.Client) {
  await client.query(`
    DO $$
    DECLARE
      m timestamptz;
      name text;
    BEGIN
      FOR k IN 1..13 LOOP
        m := (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => k)) AT TIME ZONE 'UTC';
        name := 'messages_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
        IF to_regclass(name) IS NULL THEN
          EXECUTE format(
            'CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 50)',
            name, wren_uuidv7_floor(m),
            wren_uuidv7_floor(((m AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'));
        END IF;
      END LOOP;
    END $$`);
}

async function seed(client: pg.Client, accountId: string, count: number) {
  await client.query(
    `INSERT INTO messages (id, account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                           status, priority, validity_until, created_at, submitted_at, done_at, smsc_stat)
     SELECT wren_uuidv7(t), $1::uuid,
            '+1' || (ARRAY[212,646,718,917,347,415,310,312,617,202])[1 + (i / 10000) % 10] || '555' || lpad((i % 10000)::text, 4, '0'),
            'Wren',
            (ARRAY['Your code is ', 'Your order has shipped, tracking ', 'Reminder: appointment ref ',
                   'Thanks for your payment, receipt '])[1 + i % 4] || (i::bigint * 7919 % 1000000)::text,
            'GSM-7', 1, 1, 'USD',
            CASE WHEN i % 100 < 92 THEN 'delivered' WHEN i % 100 < 97 THEN 'undelivered'
                 WHEN i % 100 < 99 THEN 'expired' ELSE 'rejected' END,
            1, t + interval '1 day', t, t, t + interval '3 seconds',
            CASE WHEN i % 100 < 92 THEN 'DELIVRD' ELSE 'UNDELIV' END
       FROM generate_series(1, $2::int) AS i,
            LATERAL (SELECT now() - interval '365 days' + (i::float8 / $2::int) * interval '365 days' AS t) ts`,
    [accountId, count],
  );
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');

/** Client GC time so far (ms), to count the timed requests that a pause of this process overlapped. */
let clientGcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) clientGcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** GET over one keep-alive connection of node:http: status and body text. */
function get(agent: Agent, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * One case: a first request timed on its own (`first`: run once per case before any case is timed,
 * it is the first read of its index and table pages since the seeding, and its first plan of the
 * partitioned table), then `runs` more give p50/p99 of a running server. With 20 requests, p99 is
 * close to the slowest, so a cold first request among them would be the p99 of every case.
 */
async function timed(agent: Agent, url: string, headers: Record<string, string>, runs: number) {
  const times: number[] = [];
  let items = 0;
  let first = 0;
  let gcHit = 0;
  for (let i = -1; i < runs; i++) {
    const gc0 = clientGcMs;
    const t0 = performance.now();
    const res = await get(agent, url, headers);
    const took = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
    if (i < 0) {
      first = took;
      items = (JSON.parse(res.text) as { items?: unknown[] }).items?.length ?? 0;
    } else {
      times.push(took);
      if (clientGcMs > gc0) gcHit += 1;
    }
  }
  times.sort((a, b) => a - b);
  return { first, p50: percentile(times, 50), p99: percentile(times, 99), items, gcHit };
}

async function main() {
  const db = BASE_DB ? await freshPostgres(BASE_DB, `wren_bench_log_${process.pid}`) : embeddedDatabase();
  // CAPTCHA=false: the bench signs up through the API like a script (no browser check).
  const wren = await startWren(
    {
      ...db.env,
      CAPTCHA: 'false',
      METRICS_TOKEN,
      // The run (seeding 10M rows, then every case) outlasts the default 15-minute access token.
      ACCESS_TOKEN_TTL_SECONDS: String(6 * 3600),
      ...(process.env.BENCH_ROLE ? { ROLE: process.env.BENCH_ROLE } : {}),
    },
    PORT,
  );
  const base = `http://127.0.0.1:${PORT}`;
  const client = new pg.Client({ connectionString: db.url });
  try {
    const a = await signUp(base);
    const b = await signUp(base);
    await client.connect();
    const t0 = performance.now();
    await createYearPartitions(client);
    await seed(client, a.accountId, N);
    await seed(client, b.accountId, Math.max(1, Math.floor(N / 10)));
    const seedS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    // What autovacuum would have done over a year of traffic, a little at a time: vacuumed and
    // analyzed the messages, the outcomes the seeding's trigger wrote, and the work queue and parts
    // that the seeding never touched. Left to autovacuum, the outcomes' first vacuum (insert-driven)
    // started during the first timed case and took a core for seconds (first page p99 10.9 ms at
    // 1M messages, 5.3 ms for the next case). Never analyzed, the queue's size is guessed: at 300k
    // messages a queue status then scanned messages (53 ms) instead of probing the empty queue.
    await client.query('VACUUM (ANALYZE) messages, message_outcomes, send_queue, message_parts');
    // The seeding wrote about 10 GB in minutes, far faster than a year of traffic: its checkpoint
    // would otherwise write it out during the first cases (their p99, not the log's).
    await client.query('CHECKPOINT');
    const vacuumS = (performance.now() - t1) / 1000;
    const { rows: size } = await client.query<{ total: string }>(
      // A partitioned table has no storage of its own: its size is its partitions'.
      `SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) AS total
         FROM pg_partition_tree('messages') WHERE isleaf`,
    );
    console.log(
      `seeded ${N.toLocaleString()} + ${Math.floor(N / 10).toLocaleString()} messages in ${seedS.toFixed(1)} s ` +
        `(vacuum, analyze and checkpoint ${vacuumS.toFixed(1)} s), messages with indexes: ${size[0]!.total}`,
    );

    const deep = await client.query<{ created_at: Date; id: string }>(
      `SELECT created_at, id FROM messages WHERE account_id = $1
        ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [a.accountId, Math.floor(N * 0.99)],
    );
    const deepCursor = b64([deep.rows[0]!.created_at.toISOString(), deep.rows[0]!.id]);
    const week = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const cases: [string, string][] = [
      ['readyz (SELECT 1: the floor)', '/readyz'],
      ['first page', '/api/sms/log?limit=50'],
      ['page 99% deep (cursor)', `/api/sms/log?limit=50&cursor=${deepCursor}`],
      ['status delivered (92%)', '/api/sms/log?limit=50&status=delivered'],
      ['status rejected (1%)', '/api/sms/log?limit=50&status=rejected'],
      ['status failed (none)', '/api/sms/log?limit=50&status=failed'],
      ['status sending (none)', '/api/sms/log?limit=50&status=sending'],
      ['status sent (none)', '/api/sms/log?limit=50&status=sent'],
      ['recipient exact', `/api/sms/log?limit=50&recipient=${encodeURIComponent('+14155550123')}`],
      [
        'recipient prefix (10 numbers)',
        `/api/sms/log?limit=50&recipient=${encodeURIComponent('+1415555012')}`,
      ],
      // An area code: a tenth of the log, seeded in runs of 10,000 consecutive messages.
      ['recipient prefix (area code)', `/api/sms/log?limit=50&recipient=${encodeURIComponent('+1415')}`],
      // A tenth of that area (1,000 numbers, in runs of 1,000 within its runs), and the same below a
      // cursor 99% deep, past the month and the year the page looks back first.
      [
        'recipient prefix (1,000 numbers)',
        `/api/sms/log?limit=50&recipient=${encodeURIComponent('+14155550')}`,
      ],
      [
        'recipient prefix (area code), 99% deep',
        `/api/sms/log?limit=50&recipient=${encodeURIComponent('+1415')}&cursor=${deepCursor}`,
      ],
      ['recipient none', `/api/sms/log?limit=50&recipient=${encodeURIComponent('+442079460000')}`],
      ['sender none', '/api/sms/log?limit=50&sender=Nobody'],
      ['text rare (1 word, few rows)', '/api/sms/log?limit=50&text=987654'],
      ['text phrase, no match', `/api/sms/log?limit=50&text=${encodeURIComponent('zebra quokka')}`],
      ['text common', '/api/sms/log?limit=50&text=shipped'],
      ['date range 7 days, mid-year', `/api/sms/log?limit=50&from=${week(180)}&to=${week(173)}`],
      [
        'date range + status rejected',
        `/api/sms/log?limit=50&status=rejected&from=${week(180)}&to=${week(173)}`,
      ],
    ];
    if (EXPORT_ONLY) cases.length = 0;
    else
      console.log(
        `\nper case: a first request, then ${RUNS} more (p50/p99); account of ${N.toLocaleString()} messages`,
      );
    if (cases.length)
      console.log(
        'case'.padEnd(34) +
          'first ms'.padStart(10) +
          'p50 ms'.padStart(10) +
          'p99 ms'.padStart(10) +
          'rows'.padStart(7) +
          'client GC'.padStart(12) +
          'server GC ms/n/>10ms'.padStart(22) +
          'loop max ms'.padStart(13),
      );
    // One keep-alive connection of node:http. fetch() (and undici's Client) added about 1 ms to
    // every request here (a trivial local server: p50 1.2–1.3 ms against node:http's 0.05 ms), and
    // fetch allocated enough that this process's own GC pauses (2–9 ms, every ~0.3 s) fell inside
    // a third of the requests over 7 ms.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Each case's first request, cold: the first read of its pages since the seeding.
    const firsts = new Map<string, { first: number; items: number }>();
    for (const [name, path] of cases) firsts.set(name, await timed(agent, base + path, a.headers, 0));
    for (let w = 0; w < WARMUP; w++) {
      for (const [, path] of cases) await timed(agent, base + path, a.headers, 0);
    }
    if (WARMUP) console.log(`(after ${WARMUP} untimed rounds of every case)`);
    for (const [name, path] of cases) {
      const rt0 = await serverRuntime(agent, base);
      const r = await timed(agent, base + path, a.headers, RUNS);
      const rt1 = await serverRuntime(agent, base);
      console.log(
        name.padEnd(34) +
          firsts.get(name)!.first.toFixed(1).padStart(10) +
          r.p50.toFixed(1).padStart(10) +
          r.p99.toFixed(1).padStart(10) +
          String(firsts.get(name)!.items).padStart(7) +
          String(r.gcHit).padStart(12) +
          `${(rt1.gcMs - rt0.gcMs).toFixed(1)}/${rt1.gcs - rt0.gcs}/${rt1.over10 - rt0.over10}`.padStart(22) +
          rt1.lagMaxMs.toFixed(1).padStart(13),
      );
    }
    agent.destroy();

    for (const days of [7, 30, 90, 180]) {
      const t = performance.now();
      const cpu0 = cpuSeconds({ pid: wren.pid! });
      const pg0 = db.postgresCpu();
      const res = await fetch(`${base}/api/sms/log/export.csv?from=${week(180)}&to=${week(180 - days)}`, {
        headers: a.headers,
      });
      if (!res.ok) throw new Error(`export: ${res.status}`);
      let lines = 0;
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const text = decoder.decode(r.value, { stream: true });
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
      }
      const s = (performance.now() - t) / 1000;
      const rows = lines - 1;
      const serverCpu = cpuSeconds({ pid: wren.pid! }) - cpu0;
      const postgresCpu = db.postgresCpu() - pg0;
      console.log(
        `CSV export ${days} days: ${rows.toLocaleString()} rows in ${s.toFixed(2)} s = ${Math.round(rows / s).toLocaleString()} rows/s` +
          ` = ${((s * 1e6) / rows).toFixed(2)} µs/row (CPU per row: Wren ${((serverCpu * 1e6) / rows).toFixed(2)} µs, PostgreSQL ${((postgresCpu * 1e6) / rows).toFixed(2)} µs)`,
      );
    }
    if (EXPORT_ONLY) return;

    // Idle: no traffic, the worker's maintenance passes keep running on their schedule.
    // First IDLE_SETTLE_SECONDS without measuring: the exports' aftermath (a checkpoint, the
    // statistics of 5M rows read) is not what an idle server costs.
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_SECONDS * 1000));
    const cpu0 = db.postgresCpu();
    const procs0 = db.postgresProcesses();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = (db.postgresCpu() - cpu0) / IDLE_SECONDS;
    const procs = cpuDiff(procs0, db.postgresProcesses());
    console.log(
      `\nidle PostgreSQL CPU with the seeded table: ${(idle * 100).toFixed(2)} % of a core (${IDLE_SECONDS} s` +
        ` after ${IDLE_SETTLE_SECONDS} s of rest` +
        (BASE_DB ? '; external server: every postgres process on this machine counts)' : ')'),
    );
    // By process; the postmaster's line includes the backends that exited meanwhile.
    for (const [title, seconds] of procs)
      console.log(`  ${((seconds / IDLE_SECONDS) * 100).toFixed(2).padStart(6)} %  ${title}`);
  } finally {
    await client.end().catch(() => undefined);
    wren.kill('SIGTERM');
    await new Promise((r) => wren.once('exit', r));
    if (process.env.BENCH_LOG_KEEP && BASE_DB) console.log(`\nkept the seeded database: ${db.url}`);
    else await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
