import { sql, type CompiledQuery } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { until } from '../realtime/test-client';
import { openPostgres, type Database } from './db';
import { createJobs, EVERY_SECOND_PASSES, type Jobs } from './jobs';
import { createLogger } from './logger';
import { MAINTENANCE_JOB, PARKED_SWEEP_JOB, registerWorkerJobs } from './worker-jobs';

const servers: TestServer[] = [];
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
  for (const s of servers.reverse()) await s.close();
});

const schedules = async (db: Database['db']) =>
  (
    await sql<{ name: string; cron: string }>`SELECT name, cron FROM pgboss.schedule ORDER BY name`.execute(
      db,
    )
  ).rows;

/** A node that works jobs, running one job `name` that holds until `finish()` is called. */
async function startHeldJob(name: string) {
  const server = await startServer({ ROLE: 'api' });
  servers.push(server);
  const database = await openPostgres(server.databaseUrl, 3);
  const jobs = createJobs({ database, logger: createLogger('silent'), work: true });
  let started = false;
  let release: () => void = () => undefined;
  jobs.register(name, async () => {
    started = true;
    await new Promise<void>((r) => (release = r));
  });
  await jobs.start();
  await jobs.send(name, {});
  await until(() => started, 10_000, 'the job to start');
  return { server, database, jobs, finish: () => release() };
}

/** A Kysely proxy's other members, methods bound to the real Kysely (its private fields are
 * not the proxy's: `connection()` on the proxy throws). */
function bound(target: object, prop: string | symbol, receiver: unknown): unknown {
  const value = Reflect.get(target, prop, receiver) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}

describe('jobs runner (pg-boss)', () => {
  it('runs a sent job on a node that works jobs, inside the sender transaction only once it commits', async () => {
    const server = await startServer({ ROLE: 'api' }); // sends, works nothing
    servers.push(server);
    const database = await openPostgres(server.databaseUrl, 3);
    const jobs = createJobs({ database, logger: createLogger('silent'), work: true });
    cleanup.push(async () => {
      await jobs.stop();
      await database.close();
    });
    const seen: string[] = [];
    jobs.register<{ n: string }>('test.echo', async (data) => {
      seen.push(data.n);
    });
    server.ctx.jobs.register('test.echo', async () => {
      throw new Error('an api node must not work jobs');
    });
    await jobs.start();

    await server.ctx.jobs.send('test.echo', { n: 'plain' });
    await expect(
      server.ctx.db.transaction().execute(async (trx) => {
        await server.ctx.jobs.send('test.echo', { n: 'rolled back' }, { trx });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await server.ctx.db
      .transaction()
      .execute((trx) => server.ctx.jobs.send('test.echo', { n: 'committed' }, { trx }));
    await until(() => seen.length >= 2, 10_000, 'two jobs');
    expect(seen.sort()).toEqual(['committed', 'plain']);
  });

  it('settles quietly a job that ends after its database closed (no unhandled rejection)', async () => {
    const { database, jobs, finish } = await startHeldJob('test.outlives');
    await database.close();
    // pg-boss now completes the job on a destroyed database: the old executor answered its
    // completion with no rows, and pg-boss's rows[0].count threw from a promise nobody awaits.
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      finish();
      await new Promise((r) => setTimeout(r, 300));
      await jobs.stop();
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  });

  it('settles quietly a job whose completion loses its connection (PostgreSQL restarting: 57P01)', async () => {
    const { server, database, jobs, finish } = await startHeldJob('test.settle-cut');
    cleanup.push(async () => {
      await jobs.stop();
      await database.close();
    });
    const db = server.ctx.db;
    const [job] = (
      await sql<{
        id: string;
      }>`SELECT id FROM pgboss.job WHERE name = 'test.settle-cut' AND state = 'active'`.execute(db)
    ).rows;
    expect(job).toBeDefined();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    let release: () => void = () => undefined;
    try {
      // Hold the job's row, so pg-boss's completion waits on it; then cut that completion's connection
      // as a restarting server does.
      let locked = false;
      const holding = db.transaction().execute(async (trx) => {
        await sql`SELECT 1 FROM pgboss.job WHERE id = ${job!.id}::uuid FOR UPDATE`.execute(trx);
        locked = true;
        await new Promise<void>((r) => (release = r));
      });
      await until(() => locked, 10_000, 'the row lock');
      finish();
      await until(
        async () => {
          const r = await sql<{ cut: boolean }>`
            SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query ILIKE '%FROM results%' AND datname = current_database()`.execute(
            db,
          );
          return r.rows.some((x) => x.cut);
        },
        10_000,
        'the completion waiting on the lock',
      );
      release();
      await holding;
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      release();
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
    // Not settled: it stays active until its lease expires, then runs again.
    const after = await sql<{
      state: string;
    }>`SELECT state FROM pgboss.job WHERE id = ${job!.id}::uuid`.execute(db);
    expect(after.rows[0]?.state).toBe('active');
  });

  it('runs the worker passes as periodic jobs on one node at a time, with their cron schedules', async () => {
    const server = await startServer({ ROLE: 'api' });
    servers.push(server);
    const calls = { maintenance: 0, sweep: 0, active: 0, maxActive: 0 };
    const nodes: { jobs: Jobs; database: Database }[] = [];
    for (let i = 0; i < 2; i += 1) {
      const database = await openPostgres(server.databaseUrl, 3);
      const jobs = createJobs({ database, logger: createLogger('silent'), work: true });
      registerWorkerJobs(jobs, {
        maintenance: async () => {
          calls.maintenance += 1;
          calls.active += 1;
          calls.maxActive = Math.max(calls.maxActive, calls.active);
          await new Promise((r) => setTimeout(r, 30));
          calls.active -= 1;
        },
        matchParked: async () => {
          calls.sweep += 1;
        },
      });
      nodes.push({ jobs, database });
    }
    cleanup.push(async () => {
      for (const n of nodes) {
        await n.jobs.stop();
        await n.database.close();
      }
    });
    await Promise.all(nodes.map((n) => n.jobs.start()));

    await until(() => calls.maintenance >= 3 && calls.sweep >= 1, 15_000, 'maintenance passes');
    expect(calls.maxActive).toBe(1);
    const crons = await schedules(server.ctx.db);
    expect(crons).toEqual(
      expect.arrayContaining([
        { name: EVERY_SECOND_PASSES, cron: '* * * * *' },
        { name: PARKED_SWEEP_JOB, cron: '* * * * *' },
      ]),
    );
    // Maintenance runs in the shared chain of the every-second passes, not a chain of its own.
    expect(crons.map((c) => c.name)).not.toContain(MAINTENANCE_JOB);
  });

  it('runs the passes of a group in one chain, each failure on its own', async () => {
    const server = await startServer({ ROLE: 'api' });
    servers.push(server);
    const database = await openPostgres(server.databaseUrl, 3);
    const jobs = createJobs({ database, logger: createLogger('silent'), work: true });
    cleanup.push(async () => {
      await jobs.stop();
      await database.close();
    });
    const calls = { failing: 0, healthy: 0 };
    jobs.every(
      'test.failing-pass',
      1,
      async () => {
        calls.failing += 1;
        throw new Error('this pass fails every time');
      },
      { group: 'test.group' },
    );
    const offHealthy = jobs.every(
      'test.healthy-pass',
      1,
      async () => {
        calls.healthy += 1;
      },
      { group: 'test.group' },
    );
    expect(() => jobs.every('test.other-period', 5, async () => undefined, { group: 'test.group' })).toThrow(
      /every 1 s/,
    );
    await jobs.start();
    await until(() => calls.healthy >= 3, 15_000, 'three runs of the healthy pass');
    expect(calls.failing).toBeGreaterThanOrEqual(3);
    // One chain: jobs of the group's queue only, none of its passes' own.
    const queues = await sql<{ name: string; n: number }>`
      SELECT name, count(*)::int AS n FROM pgboss.job WHERE name LIKE 'test.%' GROUP BY name`.execute(
      server.ctx.db,
    );
    expect(queues.rows.map((r) => r.name)).toEqual(['test.group']);
    // A pass that leaves the group runs no more; the others go on.
    offHealthy();
    const healthy = calls.healthy;
    const failing = calls.failing;
    await until(() => calls.failing >= failing + 2, 15_000, 'the group goes on');
    expect(calls.healthy).toBeLessThanOrEqual(healthy + 1);
  });

  it('keeps a periodic pass that runs longer than its period going (no wait for the 30 s poll)', async () => {
    const server = await startServer({ ROLE: 'api' });
    servers.push(server);
    const database = await openPostgres(server.databaseUrl, 3);
    // pg-boss settles a job without awaiting it. Delaying that statement makes the race certain: the
    // worker, asked for the next run during this one, fetches while this one is still active.
    const db = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop !== 'executeQuery') return bound(target, prop, receiver);
        return async (query: CompiledQuery) => {
          if (/SET completed_on = now\(\)/.test(query.sql)) await new Promise((r) => setTimeout(r, 300));
          return target.executeQuery(query);
        };
      },
    });
    const jobs = createJobs({ database: { ...database, db }, logger: createLogger('silent'), work: true });
    cleanup.push(async () => {
      await jobs.stop();
      await database.close();
    });
    const starts: number[] = [];
    jobs.every('test.slow-pass', 1, async () => {
      starts.push(Date.now());
      await new Promise((r) => setTimeout(r, 1300));
    });
    await jobs.start();
    await until(() => starts.length >= 5, 20_000, 'five runs of a 1.3 s pass every second');
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.max(...gaps), JSON.stringify(gaps)).toBeLessThan(2500);
  });

  it('stops only once a job fetched during shutdown has run and settled, before the database closes', async () => {
    const server = await startServer({ ROLE: 'api' });
    servers.push(server);
    const database = await openPostgres(server.databaseUrl, 3);
    // Each fetch of the chain's queue that found a job is held 600 ms on its way back from
    // PostgreSQL, so one is in flight when the node is told to stop, and returns its job after
    // pg-boss has stopped.
    let fetching: (() => void) | null = null;
    const db = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop !== 'executeQuery') return bound(target, prop, receiver);
        return async (query: CompiledQuery) => {
          const result = await target.executeQuery(query);
          if (
            /SET\s+state = 'active'/.test(query.sql) &&
            query.parameters.includes('test.stopping-pass') &&
            result.rows.length > 0
          ) {
            fetching?.();
            await new Promise((r) => setTimeout(r, 600));
          }
          return result;
        };
      },
    });
    const jobs = createJobs({ database: { ...database, db }, logger: createLogger('silent'), work: true });
    let closed = false;
    let runs = 0;
    const afterClose: number[] = [];
    jobs.every('test.stopping-pass', 1, async () => {
      runs += 1;
      if (closed) afterClose.push(runs);
      await sql`SELECT pg_sleep(0.05)`.execute(database.db);
    });
    await jobs.start();
    await until(() => runs >= 1, 15_000, 'a first run');
    await new Promise<void>((resolve) => (fetching = resolve));
    await jobs.stop();
    const settled = runs;
    await database.close();
    closed = true;
    await new Promise((r) => setTimeout(r, 1000));
    expect(afterClose).toEqual([]);
    expect(runs).toBe(settled);
  });

  it("a worker's maintenance pass runs as a pg-boss job", async () => {
    const server = await startServer({ SIMULATOR_DELAY_MS: '20' }, { worker: true });
    servers.push(server);
    const dispatcher = server.worker!.dispatcher;
    const original = dispatcher.maintenance;
    let runs = 0;
    dispatcher.maintenance = async () => {
      runs += 1;
      await original();
    };
    await until(() => runs >= 2, 10_000, 'maintenance through pg-boss');
    const jobs = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${EVERY_SECOND_PASSES} AND state = 'completed'`.execute(
      server.ctx.db,
    );
    expect(jobs.rows[0].n).toBeGreaterThanOrEqual(1);
  });
});
