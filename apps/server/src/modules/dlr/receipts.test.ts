import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage } from '../../../test/messaging';
import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import { insertParts } from '../messages/outcomes.repository';
import { isFinalStat } from './receipt-status';

let server: TestServer;
let accountId: string;
beforeAll(async () => {
  server = await startServer({ REFUND_STATUSES: 'undelivered' });
  accountId = (await server.client().register()).user.accountId;
});
afterAll(async () => {
  await server?.close();
});

/** A message the SMSC accepted on `connection`, its parts stored under these (canonical) ids. */
async function sentMessage(connection: string, smscIds: string[]) {
  const id = await insertTestMessage(server, { accountId, status: 'sent', segments: smscIds.length });
  await insertParts(
    server.ctx.db,
    smscIds.map((smsc_key, part) => ({ connection, smsc_key, message_id: id, part })),
  );
  return id;
}

const receipt = (connection: string, smscId: string, stat = 'DELIVRD', err = '000'): DeliveryReceipt => ({
  connection,
  smscId,
  stat,
  err,
  doneAt: null,
  raw: `id:${smscId} sub:001 dlvrd:001 submit date:2611240500 done date:2611240500 stat:${stat} err:${err} text:`,
});

const message = (id: string) =>
  server.ctx.db
    .selectFrom('messages')
    .select(['status', 'smsc_stat', 'smsc_err', 'receipt_raw', 'refunded'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const parked = (connection: string) =>
  server.ctx.db
    .selectFrom('parked_receipts')
    .select(['smsc_keys', 'reason', 'matched_at'])
    .where('connection', '=', connection)
    .execute();

const dlr = () => server.ctx.services.dlr;
const conn = () => `c-${randomUUID().slice(0, 8)}`;

describe('receipt matching', () => {
  it('never crosses sequential decimal ids: until the notation is known, a receipt another reading fits is parked', async () => {
    const c = conn();
    // Digits only on both sides so far. Receipt "16" is message a's id ("16"), or the hex receipt
    // of message b's decimal answer "22" (0x16), or the decimal receipt of message d's hex answer
    // "10" (16 = 0x10). Old code stored "22" also under "16", so receipts crossed; the one rule now
    // guesses none of them: the receipt waits (parked) for the connection's notation.
    const a = await sentMessage(c, ['16']);
    const b = await sentMessage(c, ['22']);
    const d = await sentMessage(c, ['10']);
    await dlr().handleReceipt(receipt(c, '16', 'UNDELIV', '005'));
    for (const m of [a, b, d]) expect((await message(m)).status).toBe('sent');
    expect(await parked(c)).toEqual([
      {
        smsc_keys: expect.arrayContaining(['16']) as string[],
        reason: 'ambiguous: 3 open parts have this id',
        matched_at: null,
      },
    ]);
    // A receipt only one open part fits is matched at once: "99" reads as itself, 0x99 = 153
    // and 99 = 0x63, and only "99" is a part.
    const e = await sentMessage(c, ['99']);
    await dlr().handleReceipt(receipt(c, '99'));
    expect((await message(e)).status).toBe('delivered');
  });

  it('parks a receipt that two open parts could own, with the reason, and guesses neither', async () => {
    const c = conn();
    // An SMSC restarted its counter: two messages still waiting carry the same id.
    const older = await sentMessage(c, ['1']);
    const newer = await sentMessage(c, ['1']);
    await dlr().handleReceipt(receipt(c, '1'));
    expect((await message(older)).status).toBe('sent');
    expect((await message(newer)).status).toBe('sent');
    expect(await parked(c)).toEqual([
      { smsc_keys: ['1'], reason: 'ambiguous: 2 open parts have this id', matched_at: null },
    ]);
  });

  it('keeps each message its own error when several receipts share a batch', async () => {
    const c = conn();
    const a = await sentMessage(c, ['101']);
    const b = await sentMessage(c, ['102']);
    // Not awaited one by one: both land in the same batch.
    await Promise.all([
      dlr().handleReceipt(receipt(c, '101', 'UNDELIV', '001')),
      dlr().handleReceipt(receipt(c, '102', 'UNDELIV', '099')),
    ]);
    expect(await message(a)).toMatchObject({ status: 'undelivered', smsc_err: '001', refunded: true });
    expect(await message(b)).toMatchObject({ status: 'undelivered', smsc_err: '099', refunded: true });
  });

  it('takes the failing part of a multipart message for its status and error', async () => {
    const c = conn();
    const m = await sentMessage(c, ['201', '202', '203']);
    await Promise.all([
      dlr().handleReceipt(receipt(c, '201')),
      dlr().handleReceipt(receipt(c, '202', 'EXPIRED', '042')),
      dlr().handleReceipt(receipt(c, '203')),
    ]);
    expect(await message(m)).toMatchObject({ status: 'expired', smsc_stat: 'EXPIRED', smsc_err: '042' });
  });

  it("never reports a multipart message as delivered when one part's receipt contradicts itself (DELIVRD with err:001), in an earlier batch", async () => {
    const c = conn();
    const m = await sentMessage(c, ['261', '262']);
    await dlr().handleReceipt(receipt(c, '261', 'DELIVRD', '001'));
    expect((await message(m)).status).toBe('sent');
    await dlr().handleReceipt(receipt(c, '262'));
    expect(await message(m)).toMatchObject({ status: 'unknown', smsc_stat: 'DELIVRD', smsc_err: '001' });
    const { error } = await server.ctx.db
      .selectFrom('messages')
      .select('error')
      .where('id', '=', m)
      .executeTakeFirstOrThrow();
    expect(error).toMatch(/^Part 1: Receipt contradicts itself: DELIVRD with err:001;/);
  });

  it('ends a multipart message when its last receipt comes, in a later batch, with the earlier failure', async () => {
    const c = conn();
    const m = await sentMessage(c, ['251', '252', '253']);
    await dlr().handleReceipt(receipt(c, '252', 'UNDELIV', '011'));
    expect(await message(m)).toMatchObject({ status: 'sent' });
    await dlr().handleReceipt(receipt(c, '251'));
    expect(await message(m)).toMatchObject({ status: 'sent' });
    await dlr().handleReceipt(receipt(c, '253'));
    expect(await message(m)).toMatchObject({ status: 'undelivered', smsc_stat: 'UNDELIV', smsc_err: '011' });
  });

  it('keeps the raw final receipt on a one-part message, and records a duplicate as ignored', async () => {
    const c = conn();
    const m = await sentMessage(c, ['301']);
    await dlr().handleReceipt(receipt(c, '301'));
    await dlr().handleReceipt(receipt(c, '301', 'UNDELIV', '001'));
    // On its part (0026), not on the message row, whose final version then fits its page.
    expect(await message(m)).toMatchObject({ status: 'delivered', receipt_raw: null });
    const parts = await server.ctx.db
      .selectFrom('message_parts')
      .select(['stat', 'raw'])
      .where('message_id', '=', m)
      .execute();
    expect(parts).toEqual([
      { stat: 'DELIVRD', raw: expect.stringMatching(/^id:301 .*stat:DELIVRD err:000/) },
    ]);
    const events = await server.ctx.db
      .selectFrom('message_events')
      .select(['status', 'detail'])
      .where('message_id', '=', m)
      .execute();
    expect(events).toEqual([
      { status: 'receipt', detail: 'Part 1: UNDELIV (err 001) — ignored, part already final' },
    ]);
  });

  it('a receipt that outruns its own part waits for it rather than taking another reading’s part', async () => {
    const c = conn();
    // Sequential decimal ids: message b's part "34" is stored; message a's "22" is not yet (its
    // submit_sm_resp is still being stored) when a's receipt comes. "22" read as hex is 34: the old
    // code gave b a's outcome at once, and a stayed in `sent` for good.
    const b = await sentMessage(c, ['34']);
    const pending = dlr().handleReceipt(receipt(c, '22', 'UNDELIV', '005'));
    await new Promise((r) => setTimeout(r, 50));
    expect((await message(b)).status).toBe('sent');
    const a = await sentMessage(c, ['22']);
    server.ctx.events.publish('parts.stored', { connection: c, smscIds: ['22'] });
    await pending;
    // Both readings now fit an open part: it is parked until the notation is known, never crossed.
    expect((await message(b)).status).toBe('sent');
    expect((await message(a)).status).toBe('sent');
    expect((await parked(c)).map((p) => p.reason)).toEqual(['ambiguous: 2 open parts have this id']);
  });

  it('waits for parts still being stored instead of parking, then matches', async () => {
    const c = conn();
    const pending = dlr().handleReceipt(receipt(c, 'abc123'));
    await new Promise((r) => setTimeout(r, 50));
    // The dispatcher stores the parts, then says so.
    const id = await insertTestMessage(server, { accountId, status: 'sent' });
    await insertParts(server.ctx.db, [{ connection: c, smsc_key: 'abc123', message_id: id, part: 0 }]);
    server.ctx.events.publish('parts.stored', { connection: c, smscIds: ['abc123'] });
    await pending;
    expect((await message(id)).status).toBe('delivered');
    expect(await parked(c)).toEqual([]);
  });

  it('does not take inherited object keys for final states', () => {
    expect(isFinalStat('constructor')).toBe(false);
    expect(isFinalStat('toString')).toBe(false);
    expect(isFinalStat('DELIVRD')).toBe(true);
    expect(isFinalStat('ENROUTE')).toBe(false);
  });
});
