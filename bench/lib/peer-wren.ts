import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import type { Dispatcher } from 'undici';
import { stopChild, track } from './child-processes';
import { freePorts, recipient, runLoad } from './load';
import { BASE_DB, CONCURRENCY, EMBEDDED, N, WARMUP, WINDOW } from './peer-settings';
import { us, waitForFinal, warmUp, type RunResult } from './peer-run';
import { pgStatementsEnabled, pgStatementsSettings, statementTimes, tableWrites } from './pg-stats';
import { backendsOf, postgresAuxiliaries, procStat, SampledCpu, treeCpuSeconds } from './proc-cpu';
import {
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  signUp,
  startSimulator,
  startWren,
} from './wren-process';

/**
 * Wren's run of bench:peer: one worker-and-API process on a fresh database (or its embedded
 * PostgreSQL), single sends over HTTP, progress read from the messages table.
 */
export async function runWren(idArgs: string[]): Promise<RunResult> {
  const dbName = `wren_peer_${process.pid}`;
  const db = EMBEDDED ? embeddedDatabase() : await freshPostgres(BASE_DB, dbName);
  const [smscPort, port] = await freePorts(2);
  const children: ChildProcess[] = [];
  try {
    const sim = track(
      await startSimulator([
        '--port',
        String(smscPort),
        '--delay-ms',
        '0',
        '--mix',
        'DELIVRD=100',
        ...idArgs,
      ]),
    );
    children.push(sim);
    const wren = track(
      await startWren(
        {
          ...(EMBEDDED ? db.env : { DATABASE_URL: db.url }),
          ...(EMBEDDED && pgStatementsEnabled ? pgStatementsSettings : {}),
          TRIAL_BALANCE_MINOR: String(N * 10),
          SMSC_HOST: '127.0.0.1',
          SMSC_PORT: String(smscPort),
          SMSC_BINDS: '1',
          SMSC_WINDOW: String(WINDOW),
          ...(process.env.BENCH_WREN_ID_NOTATION
            ? { SMSC_ID_NOTATION: process.env.BENCH_WREN_ID_NOTATION }
            : {}),
        },
        port,
      ),
    );
    children.push(wren);
    const session = await signUp(`http://127.0.0.1:${port}`);

    // This bench's own connection polls the database; its backend is not Wren's cost.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const pollPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const serverVersion = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
      .rows[0]!.v;
    const postmaster = procStat(pollPid)?.ppid ?? 0;
    // A shared server: count the backends of this database (sampled). Wren's embedded server is all
    // Wren's: count the whole server (postmaster, backends, WAL writer …), less this bench's backend.
    const backends = new SampledCpu(EMBEDDED ? () => [] : backendsOf(dbName, () => [pollPid]));
    const auxiliaries = new SampledCpu(EMBEDDED ? () => [] : postgresAuxiliaries(postmaster));
    const embeddedCpu = () => (EMBEDDED ? treeCpuSeconds(postmaster, (p) => p.pid !== pollPid) : 0);
    const final = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'];
    const counts = async () => {
      const r = await client.query<{ submitted: string; final: string }>(
        `SELECT count(*) FILTER (WHERE submitted_at IS NOT NULL) AS submitted,
                count(*) FILTER (WHERE status = ANY($1)) AS final FROM messages`,
        [final],
      );
      return { submitted: Number(r.rows[0]!.submitted), final: Number(r.rows[0]!.final) };
    };
    const wrenRequest = (i: number): Dispatcher.RequestOptions => ({
      path: '/api/sms/single',
      method: 'POST',
      headers: session.headers,
      body: JSON.stringify({ recipients: [recipient(i)], text: `Bench message ${i}` }),
    });
    const finalBase = await warmUp(
      `http://127.0.0.1:${port}`,
      wrenRequest,
      async () => (await counts()).final,
    );
    const submittedBase = (await counts()).submitted;
    const writes = await tableWrites(db.url);
    const statements = EMBEDDED && pgStatementsEnabled ? await statementTimes(db.url) : null;
    const cpu = () => ({
      wren: treeCpuSeconds(wren.pid!, (p) => p.command !== 'postgres'),
      pgEmbedded: embeddedCpu(),
      simulator: treeCpuSeconds(sim.pid!),
      allPostgres: cpuSeconds({ command: 'postgres' }),
      pgBackends: backends.seconds(),
      pgAux: auxiliaries.seconds(),
      self: process.cpuUsage(),
    });
    backends.start();
    auxiliaries.start();
    const before = cpu();
    const t0 = performance.now();
    const t0Epoch = Date.now();
    const load = runLoad(`http://127.0.0.1:${port}`, N, CONCURRENCY, wrenRequest);
    const w = await waitForFinal(
      load,
      async () => {
        const c = await counts();
        return { submitted: c.submitted - submittedBase, final: c.final - finalBase };
      },
      500,
      cpu,
    );
    const after = w.measured;
    backends.stop();
    auxiliaries.stop();
    const l = await load;
    const self = { user: after.self.user - before.self.user, system: after.self.system - before.self.system };
    const times = await client.query<{ submit_ms: number | null; final_ms: number | null }>(
      `SELECT extract(epoch FROM max(submitted_at)) * 1000 - $1 AS submit_ms,
              extract(epoch FROM max(done_at) FILTER (WHERE status = ANY($2))) * 1000 - $1 AS final_ms
         FROM messages`,
      [t0Epoch, final],
    );
    const byStatus = await client.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM messages GROUP BY status ORDER BY status`,
    );
    await client.end();
    const tables = await writes.report(l.accepted);
    if (statements) tables.push(...(await statements.report(l.accepted, 25)));
    const statuses = byStatus.rows.map((r) => `${r.status}=${r.n}`).join(' ');
    return {
      name: `Wren (${EMBEDDED ? 'embedded ' : ''}PostgreSQL ${serverVersion})`,
      load: l,
      submitted: w.submitted,
      submitMs: Number(times.rows[0]!.submit_ms ?? w.submitAllAt - t0),
      finalMs: w.timedOut ? performance.now() - t0 : Number(times.rows[0]!.final_ms ?? 0),
      final: w.final,
      timedOut: w.timedOut,
      cpu: {
        product: [
          ['Wren', us(after.wren - before.wren, l.accepted)],
          [
            'PostgreSQL',
            us(after.pgBackends - before.pgBackends + after.pgEmbedded - before.pgEmbedded, l.accepted),
          ],
        ],
        simulator: us(after.simulator - before.simulator, l.accepted),
        loadGenerator: us((self.user + self.system) / 1e6, l.accepted),
        extra: EMBEDDED
          ? [
              `PostgreSQL counted: Wren's embedded server ${serverVersion}, every process (postmaster, backends, WAL writer …) but this bench's polling connection`,
            ]
          : [
              `PostgreSQL counted: ${backends.count()} backends of ${dbName} (sampled every 200 ms), not this bench's polling connection`,
              `not counted: PostgreSQL WAL writer, checkpointer, bgwriter (shared by the whole server) ${us(after.pgAux - before.pgAux, l.accepted).toFixed(0)} µs/msg; ` +
                `every postgres process on the machine (pipeline.ts's figure, includes other users) ${us(after.allPostgres - before.allPostgres, l.accepted).toFixed(0)} µs/msg`,
            ],
      },
      notes: [
        `statuses: ${statuses}${WARMUP > 0 ? ` (with the ${WARMUP} warm-up messages)` : ''}`,
        `id notation: ${process.env.BENCH_WREN_ID_NOTATION ?? "Wren's default"}`,
        'pg_stat_user_tables for the run:',
        ...tables,
      ],
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await db.drop();
  }
}
