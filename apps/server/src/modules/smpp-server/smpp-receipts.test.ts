import smpp from 'smpp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { bind, call, closeClient, type Client } from './smpp-test-client';

// Receipts and inbound messages back to SMPP clients, store-and-forward, through the real listener
// (the `smpp` npm client), with the worker's gateway and built-in simulator producing the receipts.
const SMPP_ENV = { SMPP_SERVER_PORT: '0', SMPP_SERVER_TLS_PORT: 'off', SMPP_SERVER_RETRY_SECONDS: '0.3' };

let a: TestServer;
let owner: ApiClient;
let port: number;
let password: string;
let smppAccountId: string;

const until = async (check: () => Promise<boolean> | boolean, ms = 20_000, what = 'condition') => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const submit = (s: smpp.Session, text: string, registered_delivery = 1, to = '14155550123') =>
  call(s, 'submit_sm', {
    destination_addr: to,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    data_coding: 0,
    registered_delivery,
    short_message: Buffer.from(text, 'latin1'),
  });

const waiting = async (server: TestServer) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('smpp_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('smpp_account_id', '=', smppAccountId)
        .where('kind', '=', 'receipt')
        .executeTakeFirstOrThrow()
    ).n,
  );

const receipts = (c: Client) => c.received.filter((p) => ((p.esm_class ?? 0) & 0x04) === 0x04);
const textOf = (p: smpp.PDU) => {
  const sm = p.short_message as smpp.DecodedMessage | undefined;
  return typeof sm?.message === 'string' ? sm.message : String(sm?.message ?? '');
};

beforeAll(async () => {
  a = await startServer(
    {
      ...SMPP_ENV,
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      SMPP_SERVER_RECEIPT_TTL_MINUTES: '60',
    },
    { worker: true },
  );
  owner = a.client();
  await owner.register();
  port = a.app.smppServer!.info().port!;
  const res = await owner.post('/api/smpp-accounts', {
    name: 'Receipts',
    systemId: 'receipts1',
    maxBinds: 8,
    windowSize: 20,
    throughputPerSecond: 500,
  });
  expect(res.status).toBe(201);
  password = (res.body as { password: string }).password;
  smppAccountId = (res.body as { account: { id: string } }).account.id;
});
afterAll(async () => {
  await a?.close();
});

describe('receipts to a bound client', () => {
  it('sends a deliver_sm receipt with the standard text and the TLVs to the bound transceiver', async () => {
    const { session } = await bind(port, 'trx', 'receipts1', password);
    const resp = await submit(session, 'Receipt me please');
    expect(resp.command_status).toBe(0);
    const id = resp.message_id!;
    await until(() => receipts(session).some((p) => p.receipted_message_id === id), 20_000, 'receipt');
    const r = receipts(session).find((p) => p.receipted_message_id === id)!;
    expect(textOf(r)).toMatch(
      new RegExp(
        `^id:${id} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Receipt me please$`,
      ),
    );
    expect(r.message_state).toBe(2);
    expect(r.source_addr).toBe('14155550123');
    // Answered: nothing left in the outbox.
    await until(async () => (await waiting(a)) === 0, 5000, 'outbox empty');
    // registered_delivery 0: no receipt at all.
    const none = await submit(session, 'No receipt', 0);
    const link = await a.ctx.db
      .selectFrom('smpp_messages')
      .select('message_id')
      .where('smpp_id', '=', Number(none.message_id))
      .executeTakeFirstOrThrow();
    await until(async () => {
      const m = await a.ctx.db
        .selectFrom('messages')
        .select('status')
        .where('id', '=', link.message_id)
        .executeTakeFirstOrThrow();
      return m.status === 'delivered';
    });
    await new Promise((r2) => setTimeout(r2, 300));
    expect(receipts(session).some((p) => p.receipted_message_id === none.message_id)).toBe(false);
    await closeClient(session);
  });

  it('sends an intermediate ENROUTE receipt for registered_delivery 0x10, and none on success for failure-only (2)', async () => {
    const { session } = await bind(port, 'trx', 'receipts1', password);
    const both = (await submit(session, 'With intermediate', 0x11)).message_id!;
    const failureOnly = (await submit(session, 'Failure only', 0x02)).message_id!;
    await until(
      () => receipts(session).filter((p) => p.receipted_message_id === both).length >= 2,
      20_000,
      'intermediate and final receipts',
    );
    const states = receipts(session)
      .filter((p) => p.receipted_message_id === both)
      .map((p) => [p.message_state, /stat:(\w+)/.exec(textOf(p))?.[1]]);
    expect(states).toEqual([
      [1, 'ENROUTE'],
      [2, 'DELIVRD'],
    ]);
    const link = await a.ctx.db
      .selectFrom('smpp_messages')
      .select('message_id')
      .where('smpp_id', '=', Number(failureOnly))
      .executeTakeFirstOrThrow();
    await until(async () => {
      const m = await a.ctx.db
        .selectFrom('messages')
        .select('status')
        .where('id', '=', link.message_id)
        .executeTakeFirstOrThrow();
      return m.status === 'delivered';
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(receipts(session).some((p) => p.receipted_message_id === failureOnly)).toBe(false);
    await closeClient(session);
  });

  it('keeps receipts while nothing is bound and delivers them in order on the next bind', async () => {
    const tx = (await bind(port, 'tx', 'receipts1', password)).session;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await submit(tx, `Stored ${i}`)).message_id!);
    await closeClient(tx);
    await until(async () => (await waiting(a)) === 4, 20_000, '4 receipts stored');
    const order = await a.ctx.db
      .selectFrom('smpp_outbox')
      .select('smpp_id')
      .where('smpp_account_id', '=', smppAccountId)
      .orderBy('id')
      .execute();
    expect(order.map((o) => String(o.smpp_id)).sort()).toEqual([...ids].sort());
    const rx = (await bind(port, 'rx', 'receipts1', password)).session;
    await until(() => receipts(rx).length >= 4, 10_000, 'receipts on bind');
    expect(receipts(rx).map((p) => p.receipted_message_id)).toEqual(order.map((o) => String(o.smpp_id)));
    await until(async () => (await waiting(a)) === 0, 5000, 'outbox empty');
    await closeClient(rx);
  });

  it('sends a receipt again until the client answers it with ESME_ROK', async () => {
    const tx = (await bind(port, 'tx', 'receipts1', password)).session;
    const id = (await submit(tx, 'Retry me')).message_id!;
    await closeClient(tx);
    await until(async () => (await waiting(a)) === 1, 20_000, 'receipt stored');
    const seen: smpp.PDU[] = [];
    const { session: rx } = await bind(port, 'rx', 'receipts1', password, {
      onDeliver: (pdu, s) => {
        seen.push(pdu);
        // The first two: refused (a system error), then taken.
        s.send(pdu.response(seen.length <= 2 ? { command_status: 0x08 } : {}));
      },
    });
    await until(() => seen.length >= 3, 10_000, 'three attempts');
    expect(seen.every((p) => p.receipted_message_id === id)).toBe(true);
    await until(async () => (await waiting(a)) === 0, 5000, 'outbox empty');
    await new Promise((r) => setTimeout(r, 800));
    expect(seen.length).toBe(3);
    const attempts = await a.ctx.db.selectFrom('smpp_outbox').selectAll().execute();
    expect(attempts).toEqual([]);
    await closeClient(rx);
  });

  it("keeps at most the login's window of receipts unanswered on a bind", async () => {
    const res = await owner.post('/api/smpp-accounts', {
      name: 'Small window',
      systemId: 'window2',
      windowSize: 2,
    });
    const pw = (res.body as { password: string }).password;
    const id = (res.body as { account: { id: string } }).account.id;
    const stored = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM smpp_outbox WHERE smpp_account_id = ${id}::uuid`.execute(a.ctx.db)
        ).rows[0]!.n,
      );
    const tx = (await bind(port, 'tx', 'window2', pw)).session;
    for (let i = 0; i < 5; i++) expect((await submit(tx, `Window ${i}`)).command_status).toBe(0);
    await closeClient(tx);
    await until(async () => (await stored()) === 5, 20_000, '5 receipts stored');
    const held: smpp.PDU[] = [];
    const { session: rx } = await bind(port, 'rx', 'window2', pw, { onDeliver: (pdu) => held.push(pdu) });
    await until(() => held.length === 2, 5000, 'two receipts');
    await new Promise((r) => setTimeout(r, 700));
    expect(held).toHaveLength(2);
    // Answering them lets the next ones through, two at a time, until none is left.
    let answered = 0;
    await until(
      async () => {
        while (answered < held.length) rx.send(held[answered++]!.response());
        return answered === 5 && (await stored()) === 0;
      },
      10_000,
      'all answered',
    );
    expect(new Set(held.map((p) => p.receipted_message_id)).size).toBe(5);
    await closeClient(rx);
  });

  it('expires receipts nobody bound for, and counts them on the account', async () => {
    const tx = (await bind(port, 'tx', 'receipts1', password)).session;
    await submit(tx, 'Will expire');
    await closeClient(tx);
    await until(async () => (await waiting(a)) === 1, 20_000, 'receipt stored');
    // Older than SMPP_SERVER_RECEIPT_TTL_MINUTES (60).
    await sql`UPDATE smpp_outbox SET created_at = now() - interval '61 minutes' WHERE smpp_account_id = ${smppAccountId}::uuid`.execute(
      a.ctx.db,
    );
    await a.app.smppServer!.sweep();
    expect(await waiting(a)).toBe(0);
    const detail = await owner.get(`/api/smpp-accounts/${smppAccountId}`);
    expect(detail.body).toMatchObject({ receiptsExpired: 1, receiptsWaiting: 0 });
    const binds = await owner.get(`/api/smpp-accounts/${smppAccountId}/binds`);
    expect(binds.body).toMatchObject({ receiptsExpired: 1, receiptsWaiting: 0 });
  });

  it('delivers inbound messages (MO) to the account’s receiver', async () => {
    const trx = (await bind(port, 'trx', 'receipts1', password)).session;
    // The handset replies to a number the account sent to (inbound routing: the last sender).
    await submit(trx, 'Reply to me', 0, '14155550777');
    await until(async () => {
      const r = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM messages WHERE recipient = '+14155550777' AND status = 'delivered'`.execute(
        a.ctx.db,
      );
      return r.rows[0]!.n === 1;
    });
    await a.worker!.simulator!.sendMo({ from: '+14155550777', to: 'Wren', text: 'Yes please 👍' });
    await until(
      () => trx.received.some((p) => ((p.esm_class ?? 0) & 0x04) === 0 && p.source_addr === '14155550777'),
      10_000,
      'MO',
    );
    const mo = trx.received.find((p) => p.source_addr === '14155550777')!;
    expect(mo.data_coding).toBe(8);
    expect(textOf(mo)).toBe('Yes please 👍');
    await closeClient(trx);
  });
});

describe('across nodes and restarts', () => {
  it('a receipt made on the worker reaches a bind on another API node, and none is lost when that node restarts unbound', async () => {
    // Node B: an API node (no worker) on A's database; A's worker sends and gets the receipts.
    let b = await startServer(SMPP_ENV, { databaseUrl: a.databaseUrl });
    const bPort = b.app.smppServer!.info().port!;
    const rx = (await bind(bPort, 'rx', 'receipts1', password)).session;
    const tx = (await bind(bPort, 'tx', 'receipts1', password)).session;
    const live = await owner.get(`/api/smpp-accounts/${smppAccountId}/binds`);
    expect((live.body as { data: { node: string }[] }).data.length).toBeGreaterThanOrEqual(2);
    const first = (await submit(tx, 'Across nodes')).message_id!;
    await until(
      () => receipts(rx).some((p) => p.receipted_message_id === first),
      20_000,
      'cross-node receipt',
    );
    await closeClient(rx);

    // Unbound: the receipts wait in PostgreSQL while B restarts.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await submit(tx, `Restart ${i}`)).message_id!);
    await closeClient(tx);
    await until(async () => (await waiting(a)) === 3, 20_000, 'receipts stored');
    await b.close();
    b = await startServer(SMPP_ENV, { databaseUrl: a.databaseUrl });
    const again = (await bind(b.app.smppServer!.info().port!, 'rx', 'receipts1', password)).session;
    await until(() => receipts(again).length >= 3, 10_000, 'receipts after restart');
    expect(
      receipts(again)
        .map((p) => p.receipted_message_id)
        .sort(),
    ).toEqual([...ids].sort());
    await until(async () => (await waiting(a)) === 0, 5000, 'outbox empty');
    // Disabled through node A's API: node B closes its bind (NOTIFY wren_smpp_account_changed).
    const closed = new Promise<void>((r) => again.socket.once('close', () => r()));
    expect((await owner.post(`/api/smpp-accounts/${smppAccountId}/disable`, {})).status).toBe(200);
    await closed;
    await owner.post(`/api/smpp-accounts/${smppAccountId}/enable`, {});
    await b.close();
  });

  it('splits a login’s throughput limit between the nodes holding its binds', async () => {
    const res = await owner.post('/api/smpp-accounts', {
      name: 'Split',
      systemId: 'split1',
      throughputPerSecond: 10,
      windowSize: 100,
    });
    const pw = (res.body as { password: string }).password;
    const b = await startServer(SMPP_ENV, { databaseUrl: a.databaseUrl });
    try {
      const onA = (await bind(port, 'tx', 'split1', pw)).session;
      const onB = (await bind(b.app.smppServer!.info().port!, 'tx', 'split1', pw)).session;
      // Each node learns its share (1 bind of 2) at its next refresh of the bind rows (5 s).
      await new Promise((r) => setTimeout(r, 5600));
      const burst = (s: smpp.Session) =>
        Promise.all(
          Array.from({ length: 20 }, () =>
            call(s, 'submit_sm', {
              destination_addr: '14155550123',
              dest_addr_ton: 1,
              data_coding: 0,
              short_message: Buffer.from('split'),
            }),
          ),
        );
      const [ra, rb] = await Promise.all([burst(onA), burst(onB)]);
      const accepted = [...ra, ...rb].filter((r) => r.command_status === 0).length;
      // 10/s over two nodes: about 5 per node in a burst (a second's worth), not 10 each.
      expect(accepted).toBeGreaterThanOrEqual(8);
      expect(accepted).toBeLessThanOrEqual(13);
      expect([...ra, ...rb].every((r) => r.command_status === 0 || r.command_status === 0x58)).toBe(true);
      await closeClient(onA);
      await closeClient(onB);
    } finally {
      await b.close();
    }
  });
});
