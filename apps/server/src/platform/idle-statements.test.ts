import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { onEveryStatement } from '../../test/statement-spy';
import { until } from '../realtime/test-client';

/**
 * Issue #17: an idle worker costs PostgreSQL what its periodic statements cost (each is a wake-up
 * and a round trip, whatever the table size), so their number is bounded here. Counted at the
 * driver: every statement the in-process API + worker sends while nothing is being sent.
 */
const seen = new Map<string, number>();
let counting = false;
onEveryStatement((text) => {
  if (!counting) return;
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  seen.set(key, (seen.get(key) ?? 0) + 1);
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { worker: true });
});
afterAll(async () => {
  await server?.close();
});

describe('an idle worker', () => {
  it('sends PostgreSQL at most 24 statements a second', async () => {
    await until(() => server.worker!.simulator!.stats().boundSessions > 0, 20_000, 'the gateway bound');
    await new Promise((r) => setTimeout(r, 4000)); // start-up passes and the dispatcher's back-off ramp
    counting = true;
    const seconds = 15;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    counting = false;
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    const top = [...seen].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(
      `idle worker: ${(total / seconds).toFixed(1)} statements/s\n` +
        top.map(([k, n]) => `  ${(n / seconds).toFixed(2)}/s  ${k}`).join('\n'),
    );
    // Before issue #17's cuts: about 41 a second (a dispatcher look every 200 ms, each a transaction,
    // and pg-boss asking every second for each periodic pass, most finding nothing); then 31.6 with
    // a chain of its own for each every-second pass and a transaction for every look that found
    // nothing; 18.5 since they share one chain and an idle look is a one-statement probe.
    expect(total / seconds).toBeLessThanOrEqual(24);
  });

  it('keeps the connections a burst opened while they idle', async () => {
    // Eight statements at once hold eight connections (more than the passes use); after 11 s idle
    // their backends are all still there. Before, pg's default closed a connection idle for 10 s, and
    // the next burst opened it again: a new PostgreSQL backend each time (most of an idle server's
    // PostgreSQL CPU). The check is whether the first burst's backends still exist, not which ones
    // a second burst runs on: a periodic pass may hold one of them just then, and the pool rightly
    // opens another for the eighth statement (a CI run saw exactly that).
    const rows = await Promise.all(
      Array.from({ length: 8 }, () =>
        sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(0.3)`.execute(server.ctx.db),
      ),
    );
    const pids = [...new Set(rows.map((r) => r.rows[0]!.pid))];
    expect(pids.length).toBe(8);
    await new Promise((r) => setTimeout(r, 11_000));
    const alive = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity WHERE pid = ANY(${pids}::int[])`.execute(server.ctx.db);
    const gone = pids.filter((pid) => !alive.rows.some((r) => r.pid === pid));
    expect(gone).toEqual([]);
  });
});
