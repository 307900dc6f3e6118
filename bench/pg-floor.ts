/**
 * PostgreSQL's floor per message (issue #10): what the data changes of one message's life cost in
 * Wren's schema when nothing else is paid for. One PL/pgSQL procedure makes them inside the database,
 * in one backend, batch after batch, each step its own transaction as in Wren:
 *
 *   accept     the account row locked; the message rows (every index of the SMS log, the trigram
 *              index of its text search, the row triggers); their send-queue rows; one ledger entry
 *              and the balance
 *   claim      `wren_lease_ready` (Wren's own claim) and the messages moved to `sending`
 *   sent       the messages moved to `sent`; their parts stored under the SMSC id; queue rows deleted
 *   delivered  the parts settled with their raw receipts; the messages moved to `delivered`
 *
 * No client round trip, no protocol, no planning beyond the first batch, no Wren: the gap between
 * this and bench:pipeline's PostgreSQL CPU per message is what Wren's way of sending those changes
 * costs. Then the same again without the text-search index, which prints that index's share (or
 * without each index named in BENCH_INDEXES, one at a time).
 *
 *   npm run bench:pg-floor -- [messages] [batch]   (defaults 20,000 and 20: the pipeline's request size)
 *   BENCH_SYNCHRONOUS_COMMIT=off                    (commits do not wait for the disk: their share)
 *   BENCH_ROUNDS=2                                  (alternating rounds with and without the index)
 *   BENCH_INDEXES=messages_log_sender_idx,…         (the indexes measured, each dropped for its rounds;
 *                                                   default messages_body_trgm_idx)
 *   BENCH_TEXT_INDEX='USING gist (body gist_trgm_ops)'   the text-search index measured instead of
 *                                                   the migration's (GIN; also try `… WITH (fastupdate = off)`)
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres   (default: an embedded cluster)
 *
 * The embedded cluster runs durable (fsync, synchronous commit) like `wren start`. Figures: wall time
 * of each step inside the backend, the backend's CPU (from /proc, when PostgreSQL runs here), and
 * every PostgreSQL process's CPU (WAL writer, checkpointer, autovacuum included).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres } from '@wren/server/src/platform/db';
import { startEmbeddedPostgres } from '@wren/server/src/platform/embedded-postgres';
import { migrate } from '@wren/server/src/platform/migrate';
import { cpuSeconds, freshPostgres } from './lib/wren-process';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 20_000);
const BATCH = Number(process.argv[3] ?? process.env.BENCH_BATCH ?? 20);
const BASE_DB = process.env.BENCH_DATABASE_URL;
const STEPS = ['accept', 'claim', 'sent', 'delivered'] as const;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** The text-search index as migration 0018 makes it, or another kind to compare (BENCH_TEXT_INDEX). */
const TEXT_INDEX = process.env.BENCH_TEXT_INDEX ?? 'USING gin (body gin_trgm_ops)';
/** The indexes of `messages` whose share is measured, each dropped for its rounds (BENCH_INDEXES). */
const MEASURED = (process.env.BENCH_INDEXES ?? 'messages_body_trgm_idx').split(',').filter(Boolean);
/** A row label for an index: its name without the table's prefix and `_idx`. */
const label = (name: string) => name.replace(/^messages_/, '').replace(/_idx$/, '');
/** `off` shows what waiting for the disk at each commit costs (Wren itself commits durably). */
const SYNCHRONOUS_COMMIT = process.env.BENCH_SYNCHRONOUS_COMMIT === 'off' ? 'off' : 'on';

/** The procedure: `batches` rounds of the four steps, each step committed; µs per step in `floor_times`. */
const PROCEDURE = `
CREATE UNLOGGED TABLE IF NOT EXISTS floor_times (step text PRIMARY KEY, us double precision NOT NULL);
CREATE OR REPLACE PROCEDURE floor_run(p_account uuid, p_batches int, p_batch int, p_tag text)
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  ids uuid[];
  acc double precision[] := ARRAY[0, 0, 0, 0];
BEGIN
  FOR b IN 1..p_batches LOOP
    -- accept
    t0 := clock_timestamp();
    PERFORM balance_minor FROM accounts WHERE id = p_account FOR NO KEY UPDATE;
    WITH m AS (
      INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                            status, priority, next_attempt_at, validity_until)
      SELECT p_account, '+4477' || lpad(((b * p_batch + g) % 100000000)::text, 8, '0'), 'Wren',
             'Your ' || p_tag || ' order ' || (b * p_batch + g) || ' has shipped and will arrive on Tuesday.',
             'GSM-7', 1, 5, 'USD', 'queued', 1, now(), now() + interval '1 day'
        FROM generate_series(1, p_batch) g
      RETURNING id, priority, next_attempt_at, validity_until)
    INSERT INTO send_queue (message_id, priority, due_at, validity_until)
    SELECT id, priority, next_attempt_at, validity_until FROM m;
    INSERT INTO ledger_entries (account_id, amount_minor, currency, kind, reference, note)
    VALUES (p_account, -5 * p_batch, 'USD', 'send', 'floor:' || p_tag || ':' || b, p_batch || ' SMS');
    UPDATE accounts SET balance_minor = balance_minor - 5 * p_batch WHERE id = p_account;
    COMMIT;
    acc[1] := acc[1] + extract(epoch FROM clock_timestamp() - t0);
    -- claim
    t0 := clock_timestamp();
    SELECT array_agg(message_id) INTO ids FROM wren_lease_ready(p_batch, NULL, 'floor', 60);
    UPDATE messages SET status = 'sending', attempts = attempts + 1 WHERE id = ANY(ids) AND status = 'queued';
    COMMIT;
    acc[2] := acc[2] + extract(epoch FROM clock_timestamp() - t0);
    -- sent
    t0 := clock_timestamp();
    UPDATE messages SET status = 'sent', submitted_at = now(), connection = 'floor',
                        receipt_due_at = now() + interval '2 days'
     WHERE id = ANY(ids) AND status = 'sending';
    INSERT INTO message_parts (connection, smsc_key, message_id, part)
    SELECT 'floor', p_tag || ':' || b || ':' || i, ids[i], 1 FROM generate_subscripts(ids, 1) i;
    DELETE FROM send_queue WHERE message_id = ANY(ids);
    COMMIT;
    acc[3] := acc[3] + extract(epoch FROM clock_timestamp() - t0);
    -- delivered
    t0 := clock_timestamp();
    UPDATE message_parts SET stat = 'DELIVRD', err = '000',
                             raw = 'id:' || smsc_key || ' sub:001 dlvrd:001 submit date:2611281200 done date:2611281200 stat:DELIVRD err:000 text:Your order'
     WHERE connection = 'floor' AND smsc_key = ANY(
       ARRAY(SELECT p_tag || ':' || b || ':' || i FROM generate_subscripts(ids, 1) i));
    UPDATE messages SET status = 'delivered', done_at = now(), smsc_stat = 'DELIVRD', smsc_err = '000', parts_done = 1
     WHERE id = ANY(ids) AND status = 'sent';
    COMMIT;
    acc[4] := acc[4] + extract(epoch FROM clock_timestamp() - t0);
  END LOOP;
  DELETE FROM floor_times;
  INSERT INTO floor_times VALUES ('accept', acc[1] * 1e6), ('claim', acc[2] * 1e6),
                                 ('sent', acc[3] * 1e6), ('delivered', acc[4] * 1e6);
  COMMIT;
END $$;`;

async function run(url: string, allPostgresCpu: () => number) {
  const database = await openPostgres(url);
  await migrate(database);
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(PROCEDURE);
  if (SYNCHRONOUS_COMMIT !== 'on') await client.query(`SET synchronous_commit = ${SYNCHRONOUS_COMMIT}`);
  const account = (
    await client.query<{ id: string }>(
      `INSERT INTO accounts (name, balance_minor) VALUES ('floor', 1000000000) RETURNING id`,
    )
  ).rows[0]!.id;
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const batches = Math.ceil(N / BATCH);
  const messages = batches * BATCH;
  // A first round of the same size, then ANALYZE: the rounds run on plans made from statistics of a
  // table that already holds messages (on an empty table's, an update by id planned as a scan of the
  // partition, growing with every batch). Not counted.
  await client.query('CALL floor_run($1, $2, $3, $4)', [account, batches, BATCH, 'warm']);
  await client.query('ANALYZE');

  const round = async (tag: string) => {
    await client.query('CHECKPOINT');
    const backend0 = cpuSeconds({ pid });
    const all0 = allPostgresCpu();
    const started = process.hrtime.bigint();
    await client.query('CALL floor_run($1, $2, $3, $4)', [account, batches, BATCH, tag]);
    const wall = Number(process.hrtime.bigint() - started) / 1e3 / messages;
    const backend = ((cpuSeconds({ pid }) - backend0) * 1e6) / messages;
    const all = ((allPostgresCpu() - all0) * 1e6) / messages;
    const { rows } = await client.query<{ step: string; us: number }>('SELECT step, us FROM floor_times');
    const steps = Object.fromEntries(rows.map((r) => [r.step, r.us / messages]));
    return { wall, backend, all, steps };
  };
  const fmt = (v: number) => v.toFixed(1).padStart(10);
  const print = (label: string, r: Awaited<ReturnType<typeof round>>) =>
    console.log(
      `${label.padEnd(32)}${STEPS.map((s) => fmt(r.steps[s] ?? 0)).join('')}${fmt(r.wall)}${fmt(r.backend)}${fmt(r.all)}`,
    );
  const mean = (rs: Awaited<ReturnType<typeof round>>[]) => {
    const avg = (f: (r: (typeof rs)[number]) => number) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
    return {
      wall: avg((r) => r.wall),
      backend: avg((r) => r.backend),
      all: avg((r) => r.all),
      steps: Object.fromEntries(STEPS.map((s) => [s, avg((r) => r.steps[s] ?? 0)])),
    };
  };
  const hot = async () =>
    (
      await client.query<{ upd: string; hot: string }>(
        `SELECT sum(n_tup_upd) AS upd, sum(n_tup_hot_upd) AS hot FROM pg_stat_user_tables
          WHERE relname LIKE 'messages_p%' OR relname = 'messages_legacy'`,
      )
    ).rows[0]!;

  console.log(
    `PostgreSQL floor per message: ${messages.toLocaleString('en')} messages in batches of ${BATCH}, one backend, in-database (µs per message)`,
  );
  console.log(`${''.padEnd(32)}${[...STEPS, 'wall', 'CPU', 'all PG'].map((s) => s.padStart(10)).join('')}`);
  // Alternating rounds: the whole schema, then without each measured index in turn (the table grows
  // as they go, so each index's rounds sit between rounds of the whole schema).
  const whole: Awaited<ReturnType<typeof round>>[] = [];
  const without = new Map<string, Awaited<ReturnType<typeof round>>[]>(MEASURED.map((n) => [n, []]));
  if (process.env.BENCH_TEXT_INDEX) {
    await client.query('DROP INDEX messages_body_trgm_idx');
    await client.query(`CREATE INDEX messages_body_trgm_idx ON messages ${TEXT_INDEX}`);
  }
  const definitions = new Map<string, string>();
  for (const name of MEASURED) {
    const { rows } = await client.query<{ def: string }>('SELECT pg_get_indexdef($1::regclass) AS def', [
      name,
    ]);
    definitions.set(name, rows[0]!.def);
  }
  for (let r = 0; r < ROUNDS; r++) {
    whole.push(await round(`a${r}`));
    print(`Wren's schema (round ${r + 1})`, whole[r]!);
    for (const name of MEASURED) {
      await client.query(`DROP INDEX ${name}`);
      const res = await round(`${name}${r}`);
      without.get(name)!.push(res);
      print(`without ${label(name)} (${r + 1})`, res);
      await client.query(definitions.get(name)!);
    }
  }
  const a = mean(whole);
  print("Wren's schema, mean", a);
  const floor = a.all || a.wall;
  for (const name of MEASURED) {
    const b = mean(without.get(name)!);
    print(`without ${label(name)}, mean`, b);
    const share = floor - (b.all || b.wall);
    console.log(
      `  ${name}${name === 'messages_body_trgm_idx' ? ` (${TEXT_INDEX})` : ''}: ${share.toFixed(1)} µs per message of PostgreSQL's CPU ` +
        `(${((100 * share) / floor).toFixed(0)} % of the floor); its accept step ${(a.steps.accept! - b.steps.accept!).toFixed(1)} µs`,
    );
  }
  const h = await hot();
  console.log(
    `message updates HOT: ${h.hot} of ${h.upd} (${((100 * Number(h.hot)) / Math.max(1, Number(h.upd))).toFixed(1)} %)`,
  );
  console.log(
    'wall: inside the backend (commits wait for the disk); CPU: this backend, from /proc; all PG: every PostgreSQL process (0 when not on this machine)',
  );
  await client.end();
}

if (BASE_DB) {
  const db = await freshPostgres(BASE_DB, `wren_floor_${process.pid}`);
  try {
    await run(db.url, () => cpuSeconds({ command: 'postgres' }));
  } finally {
    await db.drop();
  }
} else {
  const root = mkdtempSync(path.join(tmpdir(), 'wren-floor-'));
  const cluster = await startEmbeddedPostgres({ root, database: 'wren', mode: 'durable' });
  const postmaster = Number(readFileSync(path.join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    await run(
      cluster.url('wren'),
      () => cpuSeconds({ pid: postmaster }) + cpuSeconds({ parent: postmaster }),
    );
  } finally {
    await cluster.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
