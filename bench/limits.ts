/**
 * Per-account send limits benchmark (issue #16): what the limits add to the accept path, measured
 * in-process on PostgreSQL (Wren's embedded one in a fresh data dir, or BENCH_DATABASE_URL):
 *
 *  1. loadLimits: the one primary-key read every send makes (accounts without limits pay only this).
 *  2. admit on ONE account with a daily cap and a rate: every send of that account takes the same
 *     counter row lock, so this is the ceiling of one limited account's accept rate.
 *  3. admit on many limited accounts at once (one per concurrent caller): no shared lock.
 *
 *   npm run bench:limits -- [operations] [concurrency]     (defaults 5,000 and 32)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { admitNow, loadLimits, type AccountLimits } from '@wren/server/src/modules/messages/account-limits';
import { openDatabase, openPostgres, type Database } from '@wren/server/src/platform/db';
import { migrate } from '@wren/server/src/platform/migrate';
import { freshPostgres, percentile } from './lib/wren-process';

const OPS = Number(process.argv[2] ?? process.env.BENCH_N ?? 5_000);
const CONCURRENCY = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 32);
const BASE_DB = process.env.BENCH_DATABASE_URL;

async function run(label: string, ops: number, fn: (worker: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (next < ops) {
        next++;
        const t = performance.now();
        await fn(worker);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(58)} ${Math.round(ops / seconds)
      .toLocaleString('en')
      .padStart(
        8,
      )}/s   p50 ${percentile(latencies, 50).toFixed(2)} ms   p99 ${percentile(latencies, 99).toFixed(2)} ms   ${((seconds * 1e6) / ops).toFixed(0)} µs wall per operation`,
  );
}

async function main() {
  let database: Database;
  let cleanup: () => Promise<void>;
  if (BASE_DB) {
    const fresh = await freshPostgres(BASE_DB, `wren_bench_limits_${process.pid}`);
    database = await openPostgres(fresh.url, CONCURRENCY + 2);
    cleanup = fresh.drop;
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wren-bench-limits-'));
    database = await openDatabase({ dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    await migrate(database);
    const { db } = database;
    const ids = (
      await sql<{ id: string }>`
        INSERT INTO accounts (name, max_per_second, daily_cap)
        SELECT 'bench ' || g, 1000, 100000000 FROM generate_series(1, ${CONCURRENCY + 1}) g RETURNING id`.execute(
        db,
      )
    ).rows.map((r) => r.id);
    const plain = (
      await sql<{ id: string }>`INSERT INTO accounts (name) VALUES ('no limits') RETURNING id`.execute(db)
    ).rows[0]!.id;
    const limits: AccountLimits = { maxPerSecond: 1000, dailyCap: 100_000_000, allowedCountries: null };
    console.log(
      `PostgreSQL: ${BASE_DB ? 'BENCH_DATABASE_URL' : 'embedded'}; ${OPS} operations, ${CONCURRENCY} concurrent`,
    );
    // Warm-up (connections, plans).
    await run('warm-up', 500, (w) => admitNow(db, ids[w + 1]!, limits, 1, true));

    await run('1. loadLimits (every send; all a send without limits pays)', OPS, () => loadLimits(db, plain));
    await run('2. admit, ONE limited account (1 message per send)', OPS, () =>
      admitNow(db, ids[0]!, limits, 1, true),
    );
    await run('2b. admit, ONE limited account (100 messages per send)', OPS, () =>
      admitNow(db, ids[0]!, limits, 100, true),
    );
    await run(`3. admit, ${CONCURRENCY} limited accounts at once`, OPS, (w) =>
      admitNow(db, ids[w + 1]!, limits, 1, true),
    );
    const counted = await sql<{
      n: number;
    }>`SELECT accepted AS n FROM account_send_counters WHERE account_id = ${ids[0]!}::uuid`.execute(db);
    console.log(`check: account 1 counted ${counted.rows[0]?.n} messages (expected ${OPS + OPS * 100})`);
  } finally {
    await database.close();
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
