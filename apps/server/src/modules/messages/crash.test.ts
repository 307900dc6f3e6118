import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnWorkerProcess, startServer, type TestServer } from '../../../test/harness';
import { faultFamily } from '../../../test/fault-summary';
import { expectInvariants, waitForFinal } from '../../../test/messaging';

// A second process shares the test server's PostgreSQL database.
const family = faultFamily('worker kill -9 mid-batch');

describe('worker crash', () => {
  let sim: SmscHandle;
  let server: TestServer;
  beforeAll(async () => {
    sim = await startSmsc({ port: 0, receiptDelayMs: 10 });
    // This node works no pg-boss jobs, so no maintenance pass runs here: the reclaim must come from
    // the worker's own lease timer, as it must when a killed node still holds the maintenance job.
    server = await startServer({
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(sim.port),
      LEASE_SECONDS: '5',
      RUN_JOBS: 'false',
    });
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  it(
    'reclaims the messages of a worker killed mid-batch after the lease, and finishes them',
    () =>
      family.run(async () => {
        const c = server.client();
        const { user } = await c.register();
        const recipients = Array.from({ length: 20 }, (_, i) => `+1212555${String(1000 + i)}`);
        const sent = await c.post('/api/sms/single', { recipients, text: 'Crash test' });
        expect(sent.status).toBe(202);
        const ids: string[] = sent.body.messages.map((m: { id: string }) => m.id);

        // The SMSC goes silent, so the worker holds every message in flight when it dies.
        sim.setOptions({ halfOpen: true });
        const child = spawnWorkerProcess(server, sim.port, { LEASE_SECONDS: '5' });
        const deadline = Date.now() + 20_000;
        for (;;) {
          const rows = await server.ctx.db
            .selectFrom('messages')
            .select('status')
            .where('id', 'in', ids)
            .execute();
          if (rows.every((r) => r.status === 'sending')) break;
          if (Date.now() > deadline)
            throw new Error(`worker never claimed: ${rows.map((r) => r.status).join(',')}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        sim.setOptions({ halfOpen: undefined });
        sim.dropAll();

        await server.restartWorker();
        // The lease (5 s) runs out, the new worker's reclaim timer (every 1.25 s) puts the messages
        // back, and it sends them: seconds, with room for a loaded machine.
        const done = await waitForFinal(c, ids, 60_000);
        expect(done.every((m) => m.status === 'delivered')).toBe(true);
        const reclaimed = await server.ctx.db
          .selectFrom('message_events')
          .select('message_id')
          .where('message_id', 'in', ids)
          .where('detail', 'like', 'Reclaimed%')
          .execute();
        expect(new Set(reclaimed.map((r) => r.message_id)).size).toBe(20);
        await expectInvariants(server, user.accountId);
      }),
    120_000,
  );
});
