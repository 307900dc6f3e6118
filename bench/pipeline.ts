/**
 * Pipeline benchmark: Wren on PostgreSQL with its built-in SMSC simulator. Sends N messages through the
 * HTTP send API with concurrency, then waits for every delivery receipt. For comparison it measures a
 * bare SMPP client against a simulator on the same machine.
 *
 *   npm run bench:pipeline -- [N] [concurrency] [recipients per request]
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres (default: local wren/wren)
 */
import http from 'node:http';
import smpp from 'smpp';
import { startSmsc } from '@wren/smsc-simulator';
import pg from 'pg';
import { freshPostgres, percentile, signUp, startWren } from './lib/wren-process';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 100_000);
const CONCURRENCY = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 64);
const PER_REQUEST = Number(process.argv[4] ?? process.env.BENCH_PER_REQUEST ?? 1);
const PORT = 3900 + Math.floor(Math.random() * 90);
const baseDb = process.env.BENCH_DATABASE_URL ?? 'postgres://wren:wren@127.0.0.1:5432/postgres';

// A keep-alive node:http agent: the load generator shares the machine's two cores with Wren and
// PostgreSQL, and costs about half of what fetch does per request.
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(pathname: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        path: pathname,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function rawSmpp(n: number) {
  const sim = await startSmsc({ port: 0, receiptDelayMs: 0 });
  const session = smpp.connect({ host: '127.0.0.1', port: sim.port });
  session.socket.setNoDelay(true);
  let receipts = 0;
  session.on('deliver_sm', (pdu: smpp.PDU) => {
    receipts += 1;
    session.send(pdu.response());
  });
  await new Promise<void>((resolve, reject) =>
    session.bind_transceiver({ system_id: 'wren', password: 'wrenpass' }, (pdu) =>
      pdu.command_status === 0 ? resolve() : reject(new Error('bind')),
    ),
  );
  const window = 50;
  let sent = 0;
  let acked = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (sent < n && sent - acked < window) {
        sent += 1;
        session.submit_sm(
          {
            source_addr: 'Wren',
            destination_addr: `1212555${String(sent % 10000).padStart(4, '0')}`,
            short_message: 'bench',
            data_coding: 0,
            registered_delivery: 1,
          },
          () => {
            acked += 1;
            if (acked === n) resolve();
            else pump();
          },
        );
      }
    };
    pump();
  });
  while (receipts < n) await new Promise((r) => setTimeout(r, 5));
  const secs = (performance.now() - t0) / 1000;
  session.close();
  await sim.close();
  return n / secs;
}

async function main() {
  console.log(
    `pipeline benchmark: ${N} messages, ${PER_REQUEST} per request, concurrency ${CONCURRENCY}, PostgreSQL`,
  );
  const db = await freshPostgres(baseDb, `wren_bench_${process.pid}`);
  const wren = await startWren(
    {
      DATABASE_URL: db.url,
      TRIAL_BALANCE_MINOR: String(N * 10),
      SIMULATOR_DELAY_MS: '0',
      SIMULATOR_MIX: 'DELIVRD=100',
      // BENCH_ROLE=api measures the HTTP send path alone (no worker, nothing is delivered).
      ROLE: process.env.BENCH_ROLE ?? 'all',
    },
    PORT,
  );
  const base = `http://127.0.0.1:${PORT}`;
  try {
    const session = await signUp(base);
    const latencies: number[] = [];
    let next = 0;
    let errors = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          const i = next;
          const count = Math.min(PER_REQUEST, N - i);
          next += count;
          const started = performance.now();
          const status = await post(
            '/api/sms/single',
            session.headers,
            JSON.stringify({
              recipients: Array.from(
                { length: count },
                (_, k) => `+1212555${String((i + k) % 10000).padStart(4, '0')}`,
              ),
              text: `Bench message ${i}`,
            }),
          );
          if (status !== 202) errors += count;
          latencies.push(performance.now() - started);
        }
      }),
    );
    const apiSecs = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);

    if (process.env.BENCH_ROLE === 'api') {
      console.log(
        `\nAPI only: ${N - errors} accepted in ${apiSecs.toFixed(1)} s = ${((N - errors) / apiSecs).toFixed(0)} accepted/s`,
      );
      console.log(
        `API latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      );
      return;
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const final = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled'];
    const deadline = Date.now() + 30 * 60_000;
    let done = 0;
    while (Date.now() < deadline) {
      const r = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM messages WHERE status = ANY($1)`,
        [final],
      );
      done = Number(r.rows[0]!.n);
      if (done >= N - errors) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const span = await client.query<{ secs: number }>(
      `SELECT extract(epoch FROM max(done_at) - min(created_at))::float AS secs FROM messages`,
    );
    const byStatus = await client.query(
      `SELECT status, count(*)::int AS n FROM messages GROUP BY status ORDER BY status`,
    );
    const ledger = await client.query<{ ok: boolean }>(
      `SELECT a.balance_minor = (SELECT sum(amount_minor) FROM ledger_entries e WHERE e.account_id = a.id) AS ok FROM accounts a`,
    );
    await client.end();
    const e2e = done / span.rows[0]!.secs;

    console.log(
      `\nAPI: ${N - errors} accepted in ${apiSecs.toFixed(1)} s = ${((N - errors) / apiSecs).toFixed(0)} accepted/s (${errors} errors)`,
    );
    console.log(
      `API latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `end to end: ${done} final in ${span.rows[0]!.secs.toFixed(1)} s = ${e2e.toFixed(0)} msg/s (first accept → last receipt stored)`,
    );
    console.log(`statuses: ${byStatus.rows.map((r) => `${r.status}=${r.n}`).join(' ')}`);
    console.log(`ledger balanced: ${ledger.rows.every((r) => r.ok)}`);
    const raw = await rawSmpp(Math.min(N, 50_000));
    console.log(`raw SMPP loopback (bare client, window 50, receipts on): ${raw.toFixed(0)} submit/s`);
    console.log(`ratio end-to-end / raw SMPP: ${(e2e / raw).toFixed(2)}`);
  } finally {
    agent.destroy();
    wren.kill('SIGTERM');
    await new Promise((r) => wren.once('exit', r));
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
