/**
 * Campaign benchmark (issue #11): Wren with its built-in SMSC simulator, on Wren's default embedded
 * PostgreSQL unless BENCH_DATABASE_URL is set.
 *
 *   npm run bench:campaign -- [N]        (default 100,000 recipients; 1000000 for the full figure)
 *
 * Prints: accepting an N-recipient file (upload + parse + E.164 + de-dup + suppressions + price +
 * debit + stored) against a plain COPY of N rows of the same shape in the same database (ratio);
 * the server's RSS during upload and accept; a personalised N-row × 3-column file; the drain
 * (messages/s to the SMSC and CPU per message of Wren and PostgreSQL); single-send latency from HTTP
 * accept to submit_sm while the campaign drains (p50/p99); per-recipient costs (µs, bytes/row).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sampleSlowStatements } from './lib/pg-stats';
import {
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  percentile,
  signUp,
  startWren,
} from './lib/wren-process';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 100_000);
const PORT = 4100 + Math.floor(Math.random() * 90) * 3;
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_MS ?? 10 * 60_000);
/** BENCH_DRAIN=0 measures acceptance only (no drain, no single sends alongside). */
const DRAIN = process.env.BENCH_DRAIN !== '0';

/** N distinct valid US numbers: 10 area codes × exchanges 201–299 × 10,000 lines. */
const AREA = [212, 646, 718, 917, 347, 415, 310, 312, 617, 202];
function phone(i: number): string {
  const line = i % 10_000;
  const rest = Math.floor(i / 10_000);
  const area = AREA[rest % AREA.length]!;
  const exchange = 201 + Math.floor(rest / AREA.length);
  return `+1${area}${exchange}${String(line).padStart(4, '0')}`;
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** Samples a process's RSS every 50 ms until stopped; returns the peak in MB. */
function rssPeak(pid: number) {
  let peak = rssMb(pid);
  const t = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  return () => {
    clearInterval(t);
    return Math.max(peak, rssMb(pid));
  };
}

async function main() {
  const external = process.env.BENCH_DATABASE_URL;
  const db = external
    ? await freshPostgres(external, `wren_bench_campaign_${process.pid}`)
    : embeddedDatabase();
  console.log(
    `campaign benchmark: ${N.toLocaleString()} recipients, ${external ? 'PostgreSQL' : 'embedded PostgreSQL (the npm start default)'}, one Wren process with its simulator`,
  );
  const work = mkdtempSync(path.join(tmpdir(), 'wren-bench-campaign-'));
  const children: ChildProcess[] = [];
  try {
    const wren = await startWren(
      {
        ...db.env,
        SIMULATOR_DELAY_MS: '0',
        SIMULATOR_MIX: 'DELIVRD=100',
        TRIAL_BALANCE_MINOR: String(N * 20 + 1_000_000),
        IMPORT_MAX_BYTES: String(256 * 1024 * 1024),
      },
      PORT,
    );
    children.push(wren);
    const pid = wren.pid!;
    const base = `http://127.0.0.1:${PORT}`;
    const session = await signUp(base);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();

    // --- the files ---------------------------------------------------------------------------------
    const numbers = Array.from({ length: N }, (_, i) => phone(i));
    const bulkCsv = `phone\n${numbers.join('\n')}\n`;
    const personalCsv = `phone,name,code\n${numbers.map((p, i) => `${p},Name${i % 997},C${i}`).join('\n')}\n`;
    console.log(
      `files: bulk ${(bulkCsv.length / 1e6).toFixed(1)} MB, personalised ${(personalCsv.length / 1e6).toFixed(1)} MB`,
    );

    const upload = async (name: string, body: string) => {
      const form = new FormData();
      form.append('file', new Blob([body], { type: 'text/csv' }), name);
      const headers: Record<string, string> = { ...session.headers };
      delete headers['content-type'];
      const res = await fetch(`${base}/api/campaigns/uploads`, { method: 'POST', headers, body: form });
      if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`);
      return (await res.json()) as { uploadId: string };
    };
    const post = async (p: string, body: unknown) => {
      const res = await fetch(`${base}${p}`, {
        method: 'POST',
        headers: session.headers,
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, any>;
      if (res.status >= 300) throw new Error(`${p} ${res.status}: ${JSON.stringify(json)}`);
      return json;
    };

    // --- accept a bulk file -------------------------------------------------------------------------
    const rss0 = rssMb(pid);
    let stopRss = rssPeak(pid);
    const cpuW0 = cpuSeconds({ pid });
    const cpuP0 = db.postgresCpu();
    const t0 = performance.now();
    const up = await upload('bulk.csv', bulkCsv);
    const tUp = performance.now();
    const scheduleAt = new Date(Date.now() + 86_400_000).toISOString();
    // Scheduled a day ahead first, so the acceptance is measured alone; it is rescheduled to start below.
    const accepted = await post('/api/campaigns', {
      uploadId: up.uploadId,
      phoneColumn: 'phone',
      text: 'Campaign benchmark: 20% off this weekend only',
      name: 'bench bulk',
      scheduleAt,
    });
    const tAcc = performance.now();
    const acceptRss = stopRss();
    const acceptCpuW = cpuSeconds({ pid }) - cpuW0;
    const acceptCpuP = db.postgresCpu() - cpuP0;
    const campaign = accepted.campaign as { id: string; recipients: number; costMinor: number };
    const acceptSecs = (tAcc - t0) / 1000;
    const size = await client.query<{ bytes: string; rows: string }>(
      `SELECT pg_total_relation_size('campaign_recipients') AS bytes, (SELECT count(*) FROM campaign_recipients) AS rows`,
    );
    const bytesPerRow = Number(size.rows[0]!.bytes) / Number(size.rows[0]!.rows);

    // --- a plain COPY of N rows of the same shape, in the same database -----------------------------
    await client.query(
      `CREATE TABLE bench_copy (campaign_id uuid, seq int, phone bigint, price_minor int, segments smallint, vals text,
         PRIMARY KEY (campaign_id, seq))`,
    );
    const copyFile = path.join(work, 'copy.csv');
    writeFileSync(
      copyFile,
      numbers.map((p, i) => `${campaign.id},${i},${p.slice(1)},1,1,`).join('\n') + '\n',
    );
    const tc0 = performance.now();
    execFileSync('psql', [db.url, '-q', '-c', `\\copy bench_copy FROM '${copyFile}' CSV`], {
      stdio: 'inherit',
    });
    const copySecs = (performance.now() - tc0) / 1000;
    await client.query('DROP TABLE bench_copy');

    console.log(
      `\naccept ${campaign.recipients.toLocaleString()} recipients (bulk file, ${(bulkCsv.length / 1e6).toFixed(1)} MB):`,
    );
    console.log(
      `  upload ${((tUp - t0) / 1000).toFixed(2)} s + accept ${((tAcc - tUp) / 1000).toFixed(2)} s = ${acceptSecs.toFixed(2)} s` +
        ` (${((acceptSecs * 1e6) / N).toFixed(1)} µs/recipient)`,
    );
    console.log(
      `  plain COPY of ${N.toLocaleString()} rows (psql \\copy, same shape, PK): ${copySecs.toFixed(2)} s; ratio accept / COPY = ${(acceptSecs / copySecs).toFixed(1)}×`,
    );
    console.log(
      `  server RSS: ${rss0.toFixed(0)} MB before, peak ${acceptRss.toFixed(0)} MB during upload + accept`,
    );
    console.log(
      `  CPU: Wren ${((acceptCpuW * 1e6) / N).toFixed(1)} µs/recipient, PostgreSQL ${((acceptCpuP * 1e6) / N).toFixed(1)} µs/recipient`,
    );
    console.log(`  storage: campaign_recipients ${bytesPerRow.toFixed(0)} bytes/row (table + primary key)`);
    console.log(`  debited ${campaign.costMinor.toLocaleString()} minor units in one ledger entry`);

    // --- personalised, N rows × 3 columns -----------------------------------------------------------
    stopRss = rssPeak(pid);
    const pw0 = cpuSeconds({ pid });
    const pp0 = db.postgresCpu();
    const tp0 = performance.now();
    const pup = await upload('people.csv', personalCsv);
    const tpUp = performance.now();
    const pacc = await post('/api/campaigns', {
      kind: 'personalised',
      uploadId: pup.uploadId,
      phoneColumn: 'phone',
      text: 'Hi {{name}}, your code is {{code}}',
      name: 'bench personalised',
      scheduleAt,
    });
    const tpAcc = performance.now();
    const pRss = stopRss();
    const pSecs = (tpAcc - tp0) / 1000;
    const pCpuW = cpuSeconds({ pid }) - pw0;
    const pCpuP = db.postgresCpu() - pp0;
    console.log(
      `\npersonalised ${N.toLocaleString()} rows × 3 columns (${(personalCsv.length / 1e6).toFixed(1)} MB):`,
    );
    console.log(
      `  upload ${((tpUp - tp0) / 1000).toFixed(2)} s + accept ${((tpAcc - tpUp) / 1000).toFixed(2)} s = ${pSecs.toFixed(2)} s (${((pSecs * 1e6) / N).toFixed(1)} µs/row), peak RSS ${pRss.toFixed(0)} MB`,
    );
    console.log(
      `  CPU: Wren ${((pCpuW * 1e6) / N).toFixed(1)} µs/row, PostgreSQL ${((pCpuP * 1e6) / N).toFixed(1)} µs/row`,
    );
    const pid2 = (pacc.campaign as { id: string }).id;
    const tcan = performance.now();
    const canceled = await post(`/api/campaigns/${pid2}/cancel`, {});
    console.log(
      `  canceled before its time: ${(canceled.refundedMinor as number).toLocaleString()} minor units refunded in ${((performance.now() - tcan) / 1000).toFixed(2)} s`,
    );

    // --- drain the bulk campaign, with single sends alongside ---------------------------------------
    if (!DRAIN) {
      console.log('\ndrain: skipped (BENCH_DRAIN=0)');
      await client.end();
      return;
    }
    await post(`/api/campaigns/${campaign.id}/reschedule`, {
      scheduleAt: new Date(Date.now() + 6_000).toISOString(),
    });
    await new Promise((r) => setTimeout(r, 5_500));
    const d0 = performance.now();
    const d0Wall = Date.now();
    const dw0 = cpuSeconds({ pid });
    const dp0 = db.postgresCpu();
    const singles: string[] = [];
    let draining = true;
    // BENCH_PG_SAMPLE: slow statements, autovacuum and checkpoints during the drain (pg-stats.ts).
    const sampler = process.env.BENCH_PG_SAMPLE
      ? sampleSlowStatements(client, d0, () => draining)
      : Promise.resolve();
    const singleLoop = (async () => {
      let i = 0;
      while (draining) {
        const t = performance.now();
        const res = await post('/api/sms/single', { recipients: [phone(N + i)], text: `single ${i}` }).catch(
          () => null,
        );
        const took = performance.now() - t;
        if (process.env.BENCH_PG_SAMPLE && took > 200)
          console.log(
            `  [http +${((t - d0) / 1000).toFixed(1)} s] a single send's request took ${took.toFixed(0)} ms`,
          );
        const id = (res?.messages as { id: string }[] | undefined)?.[0]?.id;
        if (id) singles.push(id);
        i += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let done = 0;
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    // Progress from the campaign's own row; the count over its messages (a scan of up to N rows,
    // which at 1M cost PostgreSQL more than the drain itself) runs only once nothing waits.
    while (Date.now() < deadline) {
      const c = await client.query<{ status: string }>(
        `SELECT status FROM bulk_campaigns WHERE campaign_id = $1`,
        [campaign.id],
      );
      if (c.rows[0]?.status === 'completed') {
        const r = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM messages WHERE campaign_id = $1 AND submitted_at IS NOT NULL`,
          [campaign.id],
        );
        done = Number(r.rows[0]!.n);
        if (done >= campaign.recipients) break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    draining = false;
    await singleLoop;
    await sampler;
    const span = await client.query<{ secs: number }>(
      `SELECT extract(epoch FROM max(submitted_at) - min(created_at))::float AS secs FROM messages WHERE campaign_id = $1`,
      [campaign.id],
    );
    const drainSecs = span.rows[0]!.secs;
    const drainWall = (performance.now() - d0) / 1000;
    const dw = cpuSeconds({ pid }) - dw0;
    const dp = db.postgresCpu() - dp0;
    const lat = await client.query<{ ms: number }>(
      `SELECT extract(epoch FROM submitted_at - created_at) * 1000 AS ms FROM messages WHERE id = ANY($1::uuid[]) AND submitted_at IS NOT NULL`,
      [singles],
    );
    const ms = lat.rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    if (process.env.BENCH_SLOW_SINGLES) {
      const slow = await client.query<{ at: number; ms: number }>(
        `SELECT extract(epoch FROM created_at) * 1000 AS at, extract(epoch FROM submitted_at - created_at) * 1000 AS ms
           FROM messages WHERE id = ANY($1::uuid[]) AND submitted_at - created_at > interval '250 ms' ORDER BY created_at`,
        [singles],
      );
      for (const r of slow.rows)
        console.log(
          `  slow single accepted at +${((r.at - d0Wall) / 1000).toFixed(1)} s of the drain: ${Number(r.ms).toFixed(0)} ms`,
        );
    }
    console.log(`\ndrain (bulk lane, core send_queue):`);
    console.log(
      `  ${done.toLocaleString()} of ${campaign.recipients.toLocaleString()} submitted in ${drainSecs.toFixed(1)} s = ${(done / drainSecs).toFixed(0)} msg/s to the SMSC simulator` +
        (done < campaign.recipients ? ` (stopped at the ${DRAIN_TIMEOUT_MS / 1000} s limit)` : ''),
    );
    console.log(
      `  CPU per message over ${drainWall.toFixed(0)} s (incl. receipts): Wren ${((dw * 1e6) / done).toFixed(0)} µs, PostgreSQL ${((dp * 1e6) / done).toFixed(0)} µs`,
    );
    console.log(
      `  single sends alongside (1 every 100 ms, ${ms.length} submitted): accept → submit_sm p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms`,
    );
    const ledger = await client.query<{ ok: boolean }>(
      `SELECT a.balance_minor = (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries e WHERE e.account_id = a.id) AS ok FROM accounts a`,
    );
    console.log(`\nledger balanced: ${ledger.rows.every((r) => r.ok)}`);
    await client.end();
  } finally {
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    }
    rmSync(work, { recursive: true, force: true });
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
