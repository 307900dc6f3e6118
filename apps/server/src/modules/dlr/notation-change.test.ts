import { startSmsc, type SmscHandle, type SmscOptions, type StoredMessage } from '@wren/smsc-simulator';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage } from '../../../test/messaging';
import { insertParts } from '../messages/outcomes.repository';
import { saveNotation } from './dlr.repository';
import { statusOfStat } from './receipt-status';

/**
 * Issue 45: a learned id notation is evidence, re-checked against every match. An SMSC that learned
 * "hex answers, decimal receipts" and later answers with sequential decimal ids (after a restart on
 * the same database, or in the middle of one run) must not have its receipts given to the messages
 * whose hex ids spell them: each receipt lands on its own message, the change is logged and the
 * notation learned again. Through the real gateway, dispatcher and PostgreSQL against the simulator.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function smscWith(opts: SmscOptions) {
  const smsc = await startSmsc({
    port: 0,
    host: '127.0.0.1',
    receiptDelayMs: 5,
    statMix: { DELIVRD: 50, UNDELIV: 30, EXPIRED: 20 },
    credentials: [{ systemId: 'wren', password: 'wrenpass' }],
    onError: () => undefined,
    ...opts,
  });
  // Every message the SMSC accepted, by destination (ids repeat once the counter starts over).
  const byDest = new Map<string, StoredMessage>();
  smsc.on('submit', (m) => byDest.set(m.dest.replace(/^\+/, ''), m));
  closers.push(() => smsc.close());
  return { smsc, byDest };
}

const smscEnv = (smsc: SmscHandle) => ({
  SMSC_HOST: '127.0.0.1',
  SMSC_PORT: String(smsc.port),
  SMSC_SYSTEM_ID: 'wren',
  SMSC_PASSWORD: 'wrenpass',
  SMSC_BINDS: '1',
  SMSC_WINDOW: '50',
  TRIAL_BALANCE_MINOR: '100000',
});

async function worker(smsc: SmscHandle, databaseUrl?: string) {
  const server = await startServer(smscEnv(smsc), { worker: true, ...(databaseUrl ? { databaseUrl } : {}) });
  return server;
}

/** `n` distinct numbers of one run (`run` keeps runs apart). */
const recipients = (run: number, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `+1${['212', '415', '646'][i % 3]}55${run}${String(i).padStart(4, '0')}`,
  );

/** The signed-in user's session (the servers of one database share it: same secret, same rows). */
let session: { accessToken: string; refreshToken: string };
async function signUp(server: TestServer) {
  session = await server.client().register();
}

async function send(server: TestServer, to: string[], text: string) {
  const c = server.client();
  c.useSession(session);
  for (let i = 0; i < to.length; i += 100) {
    const res = await c.post('/api/sms/single', { recipients: to.slice(i, i + 100), text });
    expect(res.status).toBe(202);
  }
}

const messagesTo = (server: TestServer, to: string[]) =>
  server.ctx.db
    .selectFrom('messages')
    .select(['id', 'recipient', 'status', 'smsc_stat'])
    .where('recipient', 'in', to)
    .execute();

/** Waits until no message to `to` is still open; returns them. */
async function settled(server: TestServer, to: string[], ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await messagesTo(server, to);
    const open = rows.filter((r) => ['queued', 'sending', 'sent'].includes(r.status));
    if (rows.length === to.length && open.length === 0) return rows;
    if (Date.now() > deadline) {
      const parked = await server.ctx.db
        .selectFrom('parked_receipts')
        .select(['reason', 'smsc_keys'])
        .where('matched_at', 'is', null)
        .limit(5)
        .execute();
      const notation = await notations(server);
      throw new Error(
        `${open.length} of ${rows.length} messages still open (first ${open[0]?.recipient}, notation ${JSON.stringify(notation)}): ${JSON.stringify(parked)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Messages whose status or stat is not the one the SMSC drew for THAT message. */
const wrong = (rows: Awaited<ReturnType<typeof messagesTo>>, byDest: Map<string, StoredMessage>) =>
  rows.filter((r) => {
    const drawn = byDest.get(r.recipient.replace(/^\+/, ''))?.finalStat;
    return drawn === undefined || r.smsc_stat !== drawn || r.status !== statusOfStat(drawn);
  });

const notations = (server: TestServer) =>
  server.ctx.db.selectFrom('smsc_id_notations').select(['submit_radix', 'receipt_radix']).execute();

const openParked = async (server: TestServer) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('parked_receipts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('matched_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

const changeWarnings = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter((c) => String(c[1]).startsWith('SMSC message id notation changed'));

describe('a learned id notation that changes', () => {
  it('two runs on one database: learned hex/dec, then sequential decimal ids: every receipt on its own message', async () => {
    // The database outlives both runs (its owner serves no SMSC).
    const owner = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
    closers.push(() => owner.close());
    await signUp(owner);

    const first = await smscWith({ idFormat: 'hex-resp-dec-receipt' });
    const run1 = await worker(first.smsc, owner.databaseUrl);
    const to1 = recipients(1, 300);
    await send(run1, to1, 'First run');
    const done1 = await settled(run1, to1);
    expect(wrong(done1, first.byDest)).toEqual([]);
    expect(await notations(run1)).toEqual([{ submit_radix: 'hex', receipt_radix: 'dec' }]);
    await run1.close();
    await first.smsc.close();

    // Same database, new process; the SMSC now answers 1, 2, 3 … and reports the same.
    const second = await smscWith({ idFormat: 'seq-dec' });
    const run2 = await worker(second.smsc, owner.databaseUrl);
    closers.push(() => run2.close());
    const warn = vi.spyOn(run2.ctx.logger, 'warn');
    const to2 = recipients(2, 300);
    await send(run2, to2, 'Second run');
    const done2 = await settled(run2, to2);

    expect(wrong(done2, second.byDest).slice(0, 5)).toEqual([]);
    // The first run's messages kept their own outcomes (no receipt of the second run landed on them).
    expect(wrong(await messagesTo(run2, to1), first.byDest).slice(0, 5)).toEqual([]);
    expect(changeWarnings(warn).length).toBeGreaterThanOrEqual(1);
    expect(changeWarnings(warn)[0]?.[0]).toMatchObject({ learned: 'hex/dec' });
    expect(await notations(run2)).toEqual([{ submit_radix: 'dec', receipt_radix: 'dec' }]);
    expect(await openParked(run2)).toBe(0);
  }, 120_000);

  // CI, PostgreSQL 15 stage: the second run's parts were stored later than a receipt's 2 s wait, so
  // 35 receipts were parked as naming the first run's finished parts; the notation was learned again
  // but nothing tried them once their parts were stored, and 35 of 300 messages stayed `sent`. Here
  // every statement that stores parts takes 2.5 s (a trigger), so every receipt outruns its part.
  it('two runs on one database, parts stored later than a receipt waits: parked receipts are matched once their parts are stored', async () => {
    const owner = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
    closers.push(() => owner.close());
    await signUp(owner);
    const first = await smscWith({ idFormat: 'hex-resp-dec-receipt' });
    const run1 = await worker(first.smsc, owner.databaseUrl);
    const to1 = recipients(6, 120);
    await send(run1, to1, 'First run');
    expect(wrong(await settled(run1, to1), first.byDest)).toEqual([]);
    await run1.close();
    await first.smsc.close();

    await sql`CREATE FUNCTION slow_parts() RETURNS trigger LANGUAGE plpgsql AS
              $$ BEGIN PERFORM pg_sleep(2.5); RETURN NULL; END $$`.execute(owner.ctx.db);
    await sql`CREATE TRIGGER slow_parts AFTER INSERT ON message_parts
              FOR EACH STATEMENT EXECUTE FUNCTION slow_parts()`.execute(owner.ctx.db);
    const second = await smscWith({ idFormat: 'seq-dec' });
    const run2 = await worker(second.smsc, owner.databaseUrl);
    closers.push(() => run2.close());
    const to2 = recipients(7, 120);
    await send(run2, to2, 'Second run');
    const done2 = await settled(run2, to2, 90_000);
    expect(wrong(done2, second.byDest).slice(0, 5)).toEqual([]);
    expect(wrong(await messagesTo(run2, to1), first.byDest).slice(0, 5)).toEqual([]);
    expect(await notations(run2)).toEqual([{ submit_radix: 'dec', receipt_radix: 'dec' }]);
    expect(await openParked(run2)).toBe(0);
  }, 150_000);

  // Receipts come out of order (5–300 ms each), as they did under load when this failed: receipt 16
  // read in the old notation is "10", the id of a NEW part whose own receipt was not in yet, and 153
  // of 300 were parked as ambiguous. Only parts stored before the change count in the old notation.
  it('a notation change in the middle of one run (hex/dec, then sequential decimal from 1)', async () => {
    const { smsc, byDest } = await smscWith({
      idFormat: 'hex-resp-dec-receipt',
      receiptDelayMs: [5, 300],
      switchIdFormat: { afterSubmits: 300, idFormat: 'seq-dec' },
    });
    const server = await worker(smsc);
    closers.push(() => server.close());
    await signUp(server);
    const warn = vi.spyOn(server.ctx.logger, 'warn');
    const before = recipients(3, 300);
    await send(server, before, 'Before the change');
    // The switch comes with the 301st submit: the notation is learned by then.
    expect(wrong(await settled(server, before), byDest)).toEqual([]);
    expect(await notations(server)).toEqual([{ submit_radix: 'hex', receipt_radix: 'dec' }]);

    const after = recipients(4, 300);
    await send(server, after, 'After the change');
    const done = await settled(server, after);
    expect(wrong(done, byDest).slice(0, 5)).toEqual([]);
    expect(wrong(await messagesTo(server, before), byDest).slice(0, 5)).toEqual([]);
    expect(changeWarnings(warn).length).toBeGreaterThanOrEqual(1);
    expect(await notations(server)).toEqual([{ submit_radix: 'dec', receipt_radix: 'dec' }]);
    expect(await openParked(server)).toBe(0);
  }, 120_000);

  it('never applies a receipt to a part sent far from its submit date: parked as a contradiction and logged', async () => {
    const { smsc } = await smscWith({ idFormat: 'seq-dec', receiptDelayMs: 2500 });
    const server = await worker(smsc);
    closers.push(() => server.close());
    await signUp(server);
    const warn = vi.spyOn(server.ctx.logger, 'warn');
    const to = recipients(5, 5);
    await send(server, to, 'Dated');
    // Once the SMSC has answered (parts stored), the parts are made two days old: the receipts that
    // follow say they were submitted now.
    const deadline = Date.now() + 10_000;
    let rows = await messagesTo(server, to);
    while (rows.filter((r) => r.status === 'sent').length < to.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await messagesTo(server, to);
    }
    expect(rows.map((r) => r.status)).toEqual(to.map(() => 'sent'));
    await sql`UPDATE message_parts SET created_at = created_at - interval '2 days'
               WHERE message_id = ANY(${rows.map((r) => r.id)}::uuid[])`.execute(server.ctx.db);
    const until = Date.now() + 15_000;
    while ((await openParked(server)) < to.length && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const parked = await server.ctx.db
      .selectFrom('parked_receipts')
      .select(['reason', 'submit_at'])
      .where('matched_at', 'is', null)
      .execute();
    expect(parked).toHaveLength(to.length);
    for (const p of parked) {
      expect(p.reason).toMatch(/^contradiction: its submit date .* is far from the part's submit time/);
      expect(p.submit_at).toBeInstanceOf(Date);
    }
    expect((await messagesTo(server, to)).map((r) => r.status)).toEqual(to.map(() => 'sent'));
    expect(warn.mock.calls.filter((c) => c[1] === 'receipt parked')).toHaveLength(to.length);
  }, 60_000);

  // CI, PostgreSQL 15 beside the browser tests: the second run's parts were stored later than a
  // receipt's wait, so receipt "100" read in the learned hex/dec notation named the first run's
  // finished part 0x64 and was recorded there as an ignored duplicate; 32 of 300 messages stayed
  // `sent`. Such a receipt is parked, to be matched once the notation is learned again.
  it('parks a receipt that under the learned notation names a finished part, once it has waited, instead of recording it there', async () => {
    const owner = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
    closers.push(() => owner.close());
    const { user } = await owner.client().register();
    const c = 'smsc-learned';
    await saveNotation(owner.ctx.db, c, { submit: 'hex', receipt: 'dec' }, '{}');
    // Read at start: a server that sees the notation as learned.
    const server = await startServer({}, { databaseUrl: owner.databaseUrl });
    closers.push(() => server.close());
    const old = await insertTestMessage(server, { accountId: user.accountId, status: 'sent' });
    await insertParts(server.ctx.db, [{ connection: c, smsc_key: '64', message_id: old, part: 0 }]);
    const receipt = (smscId: string, stat: string, err: string) => ({
      connection: c,
      smscId,
      stat,
      err,
      doneAt: null,
      raw: `id:${smscId} sub:001 dlvrd:001 stat:${stat} err:${err} text:`,
    });
    await server.ctx.services.dlr.handleReceipt(receipt('100', 'DELIVRD', '000'));
    const status = (id: string) =>
      server.ctx.db.selectFrom('messages').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(await status(old)).toEqual({ status: 'delivered' });

    // The SMSC now counts in decimal; message "100"'s part is not stored when its receipt comes.
    await server.ctx.services.dlr.handleReceipt(receipt('100', 'UNDELIV', '005'));
    const events = await server.ctx.db
      .selectFrom('message_events')
      .select('detail')
      .where('message_id', '=', old)
      .where('status', '=', 'receipt')
      .execute();
    expect(events).toEqual([]);
    const parked = await server.ctx.db
      .selectFrom('parked_receipts')
      .select(['reason', 'smsc_keys'])
      .where('connection', '=', c)
      .where('matched_at', 'is', null)
      .execute();
    expect(parked).toEqual([
      {
        reason:
          'ambiguous: under the learned notation it names a part that already has another final receipt',
        smsc_keys: ['100'],
      },
    ]);
  }, 30_000);
});
