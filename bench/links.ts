/**
 * Short-link redirect benchmark (issue 41 item 2): GET /l/{code} at a fixed arrival rate (open
 * loop: requests are sent on schedule whatever the answers' latency), against 100,000 stored links
 * of random codes, beside the floor: Fastify's own 302 route in a Node process of its own, at the
 * same rate with the same generator, and the same with the one PostgreSQL read a redirect needs
 * (Fastify + pg, no hooks). Prints achieved rate, p50/p99/max latency and the ratio of
 * Wren's p99 to the floor's. The goal: p99 ≤ 5 ms at 2,000 req/s.
 *
 *   npm run bench:links -- [rate] [seconds]                (defaults 2000 and 10)
 *   BENCH_DATABASE_URL=postgres://…/postgres               (default: Wren's embedded PostgreSQL)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { Pool } from 'undici';
import { startHello } from './lib/hello';
import { freePorts } from './lib/load';
import { embeddedDatabase, freshPostgres, percentile, signUp, startWren } from './lib/wren-process';

const RATE = Number(process.argv[2] ?? 2000);
const SECONDS = Number(process.argv[3] ?? 10);
const LINKS = 100_000;

interface Run {
  sent: number;
  ok: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

/** `rate` requests a second for `seconds`, each on its own schedule (1 ms ticks), over 64 connections. */
async function openLoop(
  origin: string,
  path: (i: number) => string,
  rate: number,
  seconds: number,
): Promise<Run> {
  const pool = new Pool(origin, { connections: 64, pipelining: 1 });
  const run: Run = { sent: 0, ok: 0, errors: 0, seconds: 0, latencies: [] };
  const total = rate * seconds;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  while (run.sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    while (run.sent < due) {
      const i = run.sent++;
      const t = performance.now();
      inflight.push(
        pool
          .request({ path: path(i), method: 'GET' })
          .then(async (res) => {
            await res.body.dump();
            run.latencies.push(performance.now() - t);
            if (res.statusCode === 302) run.ok += 1;
            else run.errors += 1;
          })
          .catch(() => {
            run.errors += 1;
          }),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  run.seconds = (performance.now() - start) / 1000;
  await pool.close();
  return run;
}

function report(label: string, r: Run) {
  const s = [...r.latencies].sort((a, b) => a - b);
  const p99 = percentile(s, 99);
  console.log(
    `${label}: ${r.ok.toLocaleString()} redirects, ${r.errors} errors, ${(r.sent / r.seconds).toFixed(0)} req/s; ` +
      `latency p50 ${percentile(s, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`,
  );
  return p99;
}

async function main() {
  console.log(
    `Short-link redirect: ${RATE} req/s for ${SECONDS} s, ${LINKS.toLocaleString()} links; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`,
  );
  const db = process.env.BENCH_DATABASE_URL
    ? await freshPostgres(process.env.BENCH_DATABASE_URL, `wren_bench_links_${process.pid}`)
    : embeddedDatabase();
  const [wrenPort, helloPort, pgFloorPort] = await freePorts(3);
  const children: ChildProcess[] = [];
  try {
    children.push(await startWren({ ...db.env, ROLE: 'api' }, wrenPort!));
    children.push(await startHello(helloPort!));
    children.push(await startHello(pgFloorPort!, db.url));
    const { accountId } = await signUp(`http://127.0.0.1:${wrenPort}`);
    // The links a campaign's messages would carry (the materialiser writes the same rows).
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const codes = Array.from({ length: LINKS }, () => randomBytes(9).toString('base64url'));
    const campaign = randomUUID();
    for (let i = 0; i < LINKS; i += 5000) {
      const batch = codes.slice(i, i + 5000);
      await client.query(
        `INSERT INTO short_links (code, account_id, campaign_id, message_id, url, expires_at)
         SELECT c, $2, $3, gen_random_uuid(), 'https://shop.example/sale?src=sms', now() + interval '1 day'
           FROM unnest($1::text[]) c`,
        [batch, accountId, campaign],
      );
    }
    // Vacuumed now, so autovacuum does not start on the new rows in the middle of a measured run.
    await client.query('VACUUM ANALYZE short_links');
    const pick = (i: number) => codes[(i * 7919) % LINKS]!;

    // Warm both (JIT, connections), then measure the floor and Wren alternately.
    await openLoop(`http://127.0.0.1:${helloPort}`, () => '/redirect', RATE, 2);
    await openLoop(`http://127.0.0.1:${pgFloorPort}`, (i) => `/l/${pick(i)}`, RATE, 2);
    await openLoop(`http://127.0.0.1:${wrenPort}`, (i) => `/l/${pick(i)}`, RATE, 2);
    const floor = report(
      'floor: Fastify 302 route',
      await openLoop(`http://127.0.0.1:${helloPort}`, () => '/redirect', RATE, SECONDS),
    );
    // The floor with the one read a redirect needs: Fastify + pg, no hooks, no click recorded.
    const pgFloor = report(
      'floor: Fastify + one PostgreSQL read by primary key',
      await openLoop(`http://127.0.0.1:${pgFloorPort}`, (i) => `/l/${pick(i)}`, RATE, SECONDS),
    );
    const wren = report(
      'Wren GET /l/{code}',
      await openLoop(`http://127.0.0.1:${wrenPort}`, (i) => `/l/${pick(i)}`, RATE, SECONDS),
    );
    const clicks = await client.query<{ n: string }>('SELECT count(*) AS n FROM link_clicks');
    console.log(`clicks stored: ${Number(clicks.rows[0]!.n).toLocaleString()}`);
    console.log(
      `p99 ratio Wren / floor: ${(wren / floor).toFixed(2)}; Wren / floor with the read: ${(wren / pgFloor).toFixed(2)}; ` +
        `goal p99 ≤ 5 ms: ${wren <= 5 ? 'met' : 'NOT met'} (the floor with the read: ${pgFloor.toFixed(2)} ms)`,
    );
    await client.end();
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await db.drop();
  }
}

await main();
