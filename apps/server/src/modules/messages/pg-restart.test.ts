import { transact } from '../../platform/db';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { FINAL_STATUSES } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { faultFamily } from '../../../test/fault-summary';
import { expectInvariants } from '../../../test/messaging';
import { TEST_ROOT } from '../../../test/pg-admin';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../platform/embedded-postgres';

/**
 * Issue #14, faults on PostgreSQL: the database restarts while clients send. The server runs on its
 * own embedded cluster (the run's shared one is never stopped) behind a TCP relay with a fixed port,
 * since a restarted cluster listens on a new port: to the server it is one address whose every
 * connection is cut by the shutdown, refused while the database is down, then accepted again.
 */

/** A TCP relay to the current PostgreSQL port; refuses connections while there is none. */
function startRelay() {
  let target: number | null = null;
  const pairs = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    if (target === null) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target, '127.0.0.1');
    pairs.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(client);
      pairs.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        relay.listen(0, '127.0.0.1', () => resolve((relay.address() as net.AddressInfo).port)),
      ),
    point(port: number | null) {
      target = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of pairs) s.destroy();
        relay.close(() => resolve());
      }),
  };
}

const root = path.join(TEST_ROOT, `pg-restart-${process.pid}`);
let cluster: EmbeddedPostgres;
const relay = startRelay();
let server: TestServer;

beforeAll(async () => {
  rmSync(root, { recursive: true, force: true });
  cluster = await startEmbeddedPostgres({ root, database: 'wren', mode: 'test' });
  relay.point(cluster.port);
  const relayPort = await relay.listen();
  const url = new URL(cluster.url('wren'));
  url.port = String(relayPort);
  // Through the TCP relay, not the cluster's Unix socket: the relay is what the test cuts.
  url.searchParams.delete('host');
  server = await startServer(
    { SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100', LEASE_SECONDS: '5' },
    { worker: true, databaseUrl: url.toString() },
  );
}, 60_000);

afterAll(async () => {
  await server?.close().catch(() => undefined);
  await relay.close();
  await cluster?.stop();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const family = faultFamily('PostgreSQL restart under load');

describe('faults on PostgreSQL', () => {
  it(
    'restart under load: the server reconnects, no acknowledged message is lost, all end final',
    () =>
      family.run(async () => {
        const senders = [0, 1, 2].map(() => server.client());
        const users = await Promise.all(senders.map((c) => c.register()));
        // Enough credit that the load never runs into 402 (a trial balance lasts ~500 messages).
        for (const u of users) {
          await transact(server.ctx.db, (trx) =>
            server.ctx.services.ledger.post(trx, {
              accountId: u.user.accountId,
              amountMinor: 1_000_000,
              kind: 'adjustment',
              reference: `pg-restart-load-${u.user.accountId}`,
              note: 'load test credit',
            }),
          );
        }
        const acknowledged: string[] = [];
        const refused: number[] = [];
        let stop = false;
        let block = 0;
        // Three clients send batches of 5 back to back; a reply of 202 is an acknowledgement.
        const load = senders.map(async (c) => {
          while (!stop) {
            block += 1;
            const recipients = Array.from({ length: 5 }, (_, i) => `+1646${200 + (block % 700)}${1000 + i}`);
            const res = await c
              .post('/api/sms/single', { recipients, text: `Restart load ${block}` })
              .catch(() => null);
            if (res?.status === 202) acknowledged.push(...res.body.messages.map((m: { id: string }) => m.id));
            else {
              refused.push(res?.status ?? 0);
              await sleep(50);
            }
          }
        });

        await sleep(1_500);
        const before = acknowledged.length;
        await cluster.stop(); // fast shutdown: every session is ended by the server
        relay.point(null);
        await sleep(1_000); // down: connections are refused
        cluster = await startEmbeddedPostgres({ root, database: 'wren', mode: 'test' });
        relay.point(cluster.port);
        const restartedAt = acknowledged.length;
        // Load goes on until sends are acknowledged again (the server reconnected), then 1 s more.
        const deadline = Date.now() + 20_000;
        while (acknowledged.length < restartedAt + 10 && Date.now() < deadline) await sleep(100);
        await sleep(1_000);
        stop = true;
        await Promise.all(load);

        expect(
          before,
          `sends were acknowledged before the restart (refused: ${refused.join(',')})`,
        ).toBeGreaterThan(0);
        expect(acknowledged.length, 'and again after it').toBeGreaterThanOrEqual(restartedAt + 10);
        // While the database was down, sends were refused with 503 + Retry-After (never a 500), and
        // never acknowledged.
        expect(
          refused.filter((status) => status !== 503),
          `refused: ${refused.join(',')}`,
        ).toEqual([]);

        // Every acknowledged message is stored and ends final (or is still queued), none lost.
        const db = server.ctx.db;
        const until = Date.now() + 30_000;
        let rows: { id: string; status: string }[] = [];
        for (;;) {
          rows = await db
            .selectFrom('messages')
            .select(['id', 'status'])
            .where('id', 'in', acknowledged)
            .execute();
          // Done when every message is final, or 'sent' awaiting one of the receipts refused while down.
          const waiting = rows.filter((r) => !FINAL_STATUSES.includes(r.status as never));
          const refusedReceipts = server.worker!.simulator!.stats().receiptsNacked;
          if (
            rows.length === acknowledged.length &&
            waiting.every((r) => r.status === 'sent') &&
            waiting.length <= refusedReceipts
          )
            break;
          if (Date.now() > until) break;
          await sleep(250);
        }
        expect(rows.length, 'acknowledged messages stored').toBe(acknowledged.length);
        const open = rows.filter((r) => !FINAL_STATUSES.includes(r.status as never));
        // A receipt that arrived while the database was down was refused with ESME_RX_T_APPN (a
        // temporary error: an SMSC delivers it again; the simulator does not), so its message is still
        // 'sent', awaiting it. Anything else open must still be queued.
        const nacked = server.worker!.simulator!.stats().receiptsNacked;
        const awaitingReceipt = open.filter((r) => r.status === 'sent').length;
        expect(awaitingReceipt, 'sent only for refused receipts').toBeLessThanOrEqual(nacked);
        expect(
          open.filter((r) => r.status !== 'queued' && r.status !== 'sent').map((r) => r.status),
          'final, still queued, or sent with its receipt refused',
        ).toEqual([]);
        for (const u of users) await expectInvariants(server, u.user.accountId);
        const ready = await server.client().get('/readyz');
        expect(ready.status).toBe(200);
        console.log(
          `[faults] PostgreSQL restart under load: acknowledged ${acknowledged.length} (${before} before the restart), refused while down ${refused.length} (HTTP ${[...new Set(refused)].join('/')}), lost ${acknowledged.length - rows.length}, awaiting a refused receipt ${awaitingReceipt} (receipts refused ${nacked})`,
        );
      }),
    60_000,
  );
});
