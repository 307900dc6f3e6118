import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { connectHub, pushesSettled, recordPushes, until } from '../../realtime/test-client';

const ESME_ROK = 0x00;
const ESME_RX_T_APPN = 0x64;

let server: TestServer;
beforeAll(async () => {
  // Delivery receipts play no part here: an hour's delay keeps them out of the way.
  server = await startServer({ SIMULATOR_DELAY_MS: '3600000', SENDER_ID_APPROVAL: 'auto' }, { worker: true });
});
afterAll(async () => {
  await server?.close();
});

let next = 100;
/** A fresh valid US handset per call, so accounts of other tests never sent to it. */
const handset = () => `+1415555${String(next++).padStart(4, '0')}`;

const sim = () => server.worker!.simulator!;
/** Injects an MO from the simulator: `from` as the SMSC writes it (digits, no '+'). */
const mo = (from: string, to: string, text: string) =>
  sim().sendMo({ from: from.replace(/^\+/, ''), to, text });

async function signedIn() {
  const c = server.client();
  const { user } = await c.register();
  return { c, accountId: user.accountId };
}

async function send(c: ApiClient, recipients: string[], senderId?: string) {
  const res = await c.post('/api/sms/single', { recipients, text: 'Hello from Wren', senderId });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

/** The account's messages to `recipient`, from the database (whatever the API answered). */
const messagesTo = (accountId: string, recipient: string) =>
  server.ctx.db
    .selectFrom('messages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('recipient', '=', recipient)
    .execute();
const inbox = async (c: ApiClient, query = '') => (await c.get(`/api/inbound${query}`)).body;
const balance = async (c: ApiClient) => (await c.get('/api/balance')).body.balanceMinor as number;

describe('inbound messages', () => {
  it('stores an MO for the account that last sent to the handset, and only that account sees it', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);

    const result = await mo(phone, 'Wren', 'Hello back');
    expect(result.statuses).toEqual([ESME_ROK]);

    const page = await inbox(a.c);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      from: phone,
      to: 'Wren',
      text: 'Hello back',
      parts: 1,
      keyword: null,
    });
    expect(page.nextCursor).toBeNull();
    expect((await inbox(b.c)).items).toEqual([]);

    const rows = await server.ctx.db
      .selectFrom('inbound_messages')
      .select(['account_id', 'connection'])
      .where('sender', '=', phone)
      .execute();
    expect(rows).toEqual([{ account_id: a.accountId, connection: 'simulator' }]);
  });

  it('prefers the account that sent from the number the MO answers, else the latest sender', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const created = await a.c.post('/api/sender-ids', {
      value: 'ACMESHOP',
      purpose: 'Order updates',
      sampleMessage: 'Your order shipped',
    });
    expect(created.status).toBe(201);
    const phone = handset();
    await send(a.c, [phone], 'ACMESHOP');
    await send(b.c, [phone]); // later, from the default sender "Wren"

    await mo(phone, 'ACMESHOP', 'reply to acme');
    await mo(phone, 'Wren', 'reply to wren');
    await mo(phone, '5550000', 'reply to an unknown number');

    expect((await inbox(a.c)).items.map((m: { text: string }) => m.text)).toEqual(['reply to acme']);
    expect((await inbox(b.c)).items.map((m: { text: string }) => m.text)).toEqual([
      'reply to an unknown number',
      'reply to wren',
    ]);
  });

  it('keeps an MO from a handset nobody sent to with no account: no customer sees it', async () => {
    const a = await signedIn();
    const phone = handset();
    expect((await mo(phone, 'Wren', 'who is this?')).statuses).toEqual([ESME_ROK]);
    const rows = await server.ctx.db
      .selectFrom('inbound_messages')
      .select(['account_id', 'text'])
      .where('sender', '=', phone)
      .execute();
    expect(rows).toEqual([{ account_id: null, text: 'who is this?' }]);
    expect((await inbox(a.c, `?from=${encodeURIComponent(phone)}`)).items).toEqual([]);
  });

  it('stores a multipart MO once, reassembled, with its part count', async () => {
    const a = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);
    const text = 'This is a long reply that does not fit in one SMS. '.repeat(5).trim();
    const result = await mo(phone, 'Wren', text);
    expect(result.parts).toBeGreaterThan(1);
    expect(result.statuses.every((s) => s === ESME_ROK)).toBe(true);

    const page = await inbox(a.c);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ from: phone, text, parts: result.parts });
  });

  it('pages newest first with a cursor and filters by number, text and date range', async () => {
    const a = await signedIn();
    const [p1, p2] = [handset(), handset()];
    await send(a.c, [p1, p2]);
    for (let i = 1; i <= 3; i++) await mo(p1, 'Wren', `first number message ${i}`);
    await mo(p2, 'Wren', 'second number says hi');

    const first = await inbox(a.c, '?limit=2');
    expect(first.items.map((m: { text: string }) => m.text)).toEqual([
      'second number says hi',
      'first number message 3',
    ]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await inbox(a.c, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((m: { text: string }) => m.text)).toEqual([
      'first number message 2',
      'first number message 1',
    ]);
    expect(second.nextCursor).toBeNull();

    expect((await inbox(a.c, `?from=${encodeURIComponent(p2)}`)).items).toHaveLength(1);
    expect((await inbox(a.c, '?text=MESSAGE%202')).items.map((m: { text: string }) => m.text)).toEqual([
      'first number message 2',
    ]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await inbox(a.c, `?since=${encodeURIComponent(future)}`)).items).toEqual([]);
    expect((await inbox(a.c, `?until=${encodeURIComponent(future)}`)).items).toHaveLength(4);
    expect((await a.c.get('/api/inbound?cursor=garbage')).status).toBe(400);
    expect((await a.c.get('/api/inbound?since=yesterday')).status).toBe(400);
  });

  it('pushes InboundSmsReceived to the account that received it, not to others', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);
    const hubA = await connectHub(server.url, a.c.accessToken!);
    const hubB = await connectHub(server.url, b.c.accessToken!);
    try {
      const pushesA = recordPushes(hubA);
      const pushesB = recordPushes(hubB);
      await mo(phone, 'Wren', 'live please');
      await until(() => pushesA.count('InboundSmsReceived') > 0, 5000, 'InboundSmsReceived');
      await pushesSettled(server.app); // any push for B, trailing ones included, would be out by now
      expect(pushesB.count('InboundSmsReceived')).toBe(0);
    } finally {
      hubA.close();
      hubB.close();
    }
  });
});

describe('suppression list', () => {
  it('STOP suppresses the sender: a later send skips it and does not charge for it; START re-allows', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const [stopper, other] = [handset(), handset()];
    await send(a.c, [stopper]);
    await send(b.c, [other]);

    expect((await mo(stopper, 'Wren', '  stop ')).statuses).toEqual([ESME_ROK]);
    const list = (await a.c.get('/api/suppressions')).body.items;
    expect(list).toEqual([
      expect.objectContaining({
        phone: stopper,
        reason: 'stop_keyword',
        inboundMessageId: expect.any(String),
      }),
    ]);
    expect((await inbox(a.c)).items[0]).toMatchObject({ keyword: 'STOP' });
    expect((await b.c.get('/api/suppressions')).body.items).toEqual([]);

    const before = await balance(a.c);
    const res = await send(a.c, [stopper, other]);
    expect(res.messages.map((m: { recipient: string }) => m.recipient)).toEqual([other]);
    expect(res.suppressed).toEqual([{ recipient: stopper, reason: 'stop_keyword' }]);
    expect(res.totalPriceMinor).toBe(res.messages[0].priceMinor);
    expect(res.balanceMinor).toBe(before - res.messages[0].priceMinor);
    expect(await balance(a.c)).toBe(before - res.messages[0].priceMinor);
    const sentToStopper = await messagesTo(a.accountId, stopper);
    expect(sentToStopper).toHaveLength(1); // the send before STOP only

    const onlyStopper = await a.c.post('/api/sms/single', { recipients: [stopper], text: 'again' });
    expect(onlyStopper.status).toBe(400);
    expect(onlyStopper.body.errors.recipients[0]).toMatch(/suppression list/);
    expect(await balance(a.c)).toBe(before - res.messages[0].priceMinor);

    // Another account that texts the same handset is not affected by a's list.
    const bRes = await send(b.c, [stopper]);
    expect(bRes.messages).toHaveLength(1);
    expect(bRes.suppressed).toEqual([]);

    // b's send made b the latest sender: the handset's next keywords belong to b's list, not a's.
    await mo(stopper, 'Wren', 'Unsubscribe me please');
    expect((await b.c.get('/api/suppressions')).body.items).toHaveLength(1);
    await mo(stopper, 'Wren', 'START');
    expect((await b.c.get('/api/suppressions')).body.items).toEqual([]);
    expect((await a.c.get('/api/suppressions')).body.items).toHaveLength(1);
  });

  it("STOP (or a number added by hand) cancels and refunds the account's messages still waiting for it", async () => {
    const a = await signedIn();
    const [stopper, byHand, other] = [handset(), handset(), handset()];
    await send(a.c, [stopper]);
    const start = await balance(a.c);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await a.c.post('/api/sms/single', {
      recipients: [stopper, byHand, other],
      text: 'Tomorrow',
      scheduleAt: later,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(202);
    const ids = new Map<string, string>(
      scheduled.body.messages.map((m: { recipient: string; id: string }) => [m.recipient, m.id]),
    );
    const each = scheduled.body.messages[0].priceMinor as number;
    expect(await balance(a.c)).toBe(start - 3 * each);

    expect((await mo(stopper, 'Wren', 'STOP')).statuses).toEqual([ESME_ROK]);
    expect((await a.c.post('/api/suppressions', { phone: byHand })).status).toBeLessThan(300);

    const status = async (recipient: string) =>
      (await a.c.get(`/api/sms/log/${ids.get(recipient)}`)).body.message as {
        status: string;
        error: string | null;
      };
    for (const r of [stopper, byHand]) {
      expect(await status(r)).toMatchObject({
        status: 'canceled',
        error: 'Canceled: the number opted out (suppression list) before it was sent',
      });
    }
    expect((await status(other)).status).toBe('scheduled');
    // Both refunded, once.
    expect(await balance(a.c)).toBe(start - each);
  });

  it("an opt-out takes the account's row before its messages, as a campaign's cancel does (no deadlock)", async () => {
    const a = await signedIn();
    const number = handset();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await a.c.post('/api/sms/single', {
      recipients: [number],
      text: 'Later',
      scheduleAt: later,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(202);
    const id = scheduled.body.messages[0].id as string;
    // A cancel holding the account's row (as a campaign's cancel does before it moves its messages).
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [a.accountId]);
      const optOut = a.c.post('/api/suppressions', { phone: number });
      // The opt-out waits for the row (it has not locked the message) …
      for (let waited = 0; ; waited += 50) {
        // From another connection: inside a transaction, pg_stat_activity is read once and kept.
        const { rows } = await sql<{ n: string }>`
          SELECT count(*) AS n FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND query ILIKE '%from "accounts"%'`.execute(server.ctx.db);
        if (Number(rows[0]!.n) > 0) break;
        expect(waited, 'the opt-out waits for the account row').toBeLessThan(10_000);
        await new Promise((r) => setTimeout(r, 50));
      }
      // … so the cancel can still take the message: before, the opt-out held it, and waited for the
      // row this transaction holds (a deadlock; PostgreSQL aborted one of the two).
      await other.query(`SET LOCAL lock_timeout = '3s'`);
      await other.query('SELECT 1 FROM messages WHERE id = $1 FOR NO KEY UPDATE', [id]);
      await other.query('ROLLBACK');
      expect((await optOut).status).toBeLessThan(300);
    } finally {
      await other.end();
    }
    expect((await a.c.get(`/api/sms/log/${id}`)).body.message.status).toBe('canceled');
  });

  it('an OTP to a number that opted out is refused, with nothing sent or charged', async () => {
    const a = await signedIn();
    const stopper = handset();
    await send(a.c, [stopper]);
    await mo(stopper, 'Wren', 'STOP');
    const svc = await a.c.post('/api/otp-services', { name: 'Login', template: 'Your code is {{code}}' });
    expect(svc.status, JSON.stringify(svc.body)).toBe(201);
    const before = await balance(a.c);
    const res = await a.c.post(`/v1/otp/${svc.body.id}/send`, { to: stopper });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/opted out/);
    expect(await balance(a.c)).toBe(before);
    const codes = await messagesTo(a.accountId, stopper);
    expect(codes).toHaveLength(1); // the send before STOP only
  });

  it('START from the handset removes it from the list and sends reach it again', async () => {
    const a = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);
    await mo(phone, 'Wren', 'QUIT');
    expect((await a.c.get('/api/suppressions')).body.items).toHaveLength(1);
    expect((await a.c.post('/api/sms/single', { recipients: [phone], text: 'x' })).status).toBe(400);
    await mo(phone, 'Wren', 'yes');
    expect((await a.c.get('/api/suppressions')).body.items).toEqual([]);
    const res = await send(a.c, [phone]);
    expect(res.messages).toHaveLength(1);
    expect(res.suppressed).toEqual([]);
  });

  it('a word that only contains a keyword does not suppress', async () => {
    const a = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);
    await mo(phone, 'Wren', 'Please do not stop sending');
    await mo(phone, 'Wren', 'STOPPED');
    expect((await a.c.get('/api/suppressions')).body.items).toEqual([]);
  });

  it('adds and removes numbers by hand, scoped to the account', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const phone = handset();

    const added = await a.c.post('/api/suppressions', { phone: phone.replace('+1', '') });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ phone, reason: 'manual', inboundMessageId: null });
    expect((await a.c.post('/api/suppressions', { phone: 'not a number' })).status).toBe(400);
    expect((await a.c.post('/api/suppressions', {})).status).toBe(400);
    expect((await a.c.post('/api/sms/single', { recipients: [phone], text: 'x' })).status).toBe(400);

    // b neither sees nor removes a's entry
    expect((await b.c.get('/api/suppressions')).body.items).toEqual([]);
    expect((await b.c.delete(`/api/suppressions/${encodeURIComponent(phone)}`)).status).toBe(404);
    expect((await a.c.get('/api/suppressions')).body.items).toHaveLength(1);
    expect((await send(b.c, [phone])).messages).toHaveLength(1);

    expect((await a.c.delete(`/api/suppressions/${encodeURIComponent(phone)}`)).status).toBe(204);
    expect((await a.c.delete(`/api/suppressions/${encodeURIComponent(phone)}`)).status).toBe(404);
    expect((await a.c.get('/api/suppressions')).body.items).toEqual([]);
    expect((await send(a.c, [phone])).messages).toHaveLength(1);
  });

  it('every endpoint needs a signed-in user, and changes need the XSRF header', async () => {
    const anon = server.client();
    expect((await anon.get('/api/inbound')).status).toBe(401);
    expect((await anon.get('/api/suppressions')).status).toBe(401);
    expect((await anon.post('/api/suppressions', { phone: '+14155550100' })).status).toBe(401);
    expect((await anon.delete('/api/suppressions/%2B14155550100')).status).toBe(401);

    const a = await signedIn();
    a.c.xsrf = false;
    expect((await a.c.post('/api/suppressions', { phone: '+14155550100' })).status).toBe(403);
    expect((await a.c.delete('/api/suppressions/%2B14155550100')).status).toBe(403);
    a.c.xsrf = true;
    expect((await a.c.get('/api/suppressions')).body.items).toEqual([]);
  });
});

describe('acknowledgement', () => {
  it('answers the MO with a temporary error when it cannot be stored, and stores the resend', async () => {
    const a = await signedIn();
    const phone = handset();
    await send(a.c, [phone]);
    await sql`ALTER TABLE inbound_messages RENAME TO inbound_messages_away`.execute(server.ctx.db);
    try {
      expect((await mo(phone, 'Wren', 'not yet')).statuses).toEqual([ESME_RX_T_APPN]);
      const long = 'Part of a long message that will not be stored on the first try. '.repeat(3);
      const multi = await mo(phone, 'Wren', long);
      // Parts before the last are buffered and acknowledged; the completing part is refused.
      expect(multi.statuses).toContain(ESME_RX_T_APPN);
    } finally {
      await sql`ALTER TABLE inbound_messages_away RENAME TO inbound_messages`.execute(server.ctx.db);
    }
    expect((await inbox(a.c)).items).toEqual([]);

    expect((await mo(phone, 'Wren', 'not yet')).statuses).toEqual([ESME_ROK]);
    const items = (await inbox(a.c)).items;
    expect(items.map((m: { text: string }) => m.text)).toEqual(['not yet']);
  });
});
