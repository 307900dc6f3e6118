import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants, waitForFinal } from '../../../test/messaging';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100', REFUND_STATUSES: 'undelivered' },
    { worker: true },
  );
  server.worker!.simulator!.setOptions({
    statByDestination: (dest: string) => (dest.endsWith('9999') ? 'UNDELIV' : undefined),
  });
});
afterAll(async () => {
  await server?.close();
});

const entries = (accountId: string) =>
  server.ctx.db
    .selectFrom('ledger_entries')
    .select(['kind', 'amount_minor'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();

describe('single SMS delivery', () => {
  it('reaches delivered with the right segments, encoding, price and ledger entries', async () => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/sms/single', {
      recipients: ['(415) 555-0123'],
      text: 'Your code is 1234 [ok]',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ totalPriceMinor: 1, currency: 'USD', balanceMinor: 499 });
    const [m] = res.body.messages;
    expect(m).toMatchObject({
      recipient: '+14155550123',
      sender: 'Wren',
      encoding: 'GSM-7',
      segments: 1,
      priceMinor: 1,
      status: 'queued',
    });
    const [done] = await waitForFinal(c, [m.id]);
    expect(done.status).toBe('delivered');
    expect(await entries(user.accountId)).toEqual([
      { kind: 'trial_credit', amount_minor: 500 },
      { kind: 'sms_debit', amount_minor: -1 },
    ]);
    const detail = await c.get(`/api/sms/log/${m.id}`);
    expect(detail.body.events.map((e: { status: string }) => e.status)).toEqual([
      'queued',
      'sent',
      'delivered',
    ]);
    // A customer's view: no connection name and no raw receipt (message-history.test.ts has the admin's).
    expect(detail.body.events[1].detail).toMatch(/^Submitted to the SMSC, SMSC id \S+/);
    expect(detail.body.events[2]).toMatchObject({
      detail: 'Final: DELIVRD (err 000): delivered to the handset',
      raw: null,
    });
    // The happy path stores no history rows: the steps come from the message itself.
    const stored = await server.ctx.db
      .selectFrom('message_events')
      .select('status')
      .where('message_id', '=', m.id)
      .execute();
    expect(stored).toEqual([]);
    const sim = [...server.worker!.simulator!.messages.values()].filter((s) => s.dest === '14155550123');
    expect(sim.length).toBeGreaterThanOrEqual(1);
    expect(sim.at(-1)!.text).toBe('Your code is 1234 [ok]');
    await expectInvariants(server, user.accountId);
  });

  it('sends long Unicode text as concatenated UCS-2 parts, priced per segment', async () => {
    const c = server.client();
    const { user } = await c.register();
    const text = 'Привет! Ваш заказ готов к выдаче. Спасибо, что выбрали нас. Хорошего дня!! 😀';
    const res = await c.post('/api/sms/single', { recipients: ['+447911123456'], text });
    expect(res.status).toBe(202);
    const [m] = res.body.messages;
    expect(m).toMatchObject({ encoding: 'UCS-2', segments: 2, priceMinor: 8 });
    const [done] = await waitForFinal(c, [m.id]);
    expect(done.status).toBe('delivered');
    const parts = [...server.worker!.simulator!.messages.values()].filter((s) => s.dest === '447911123456');
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.dataCoding === 8)).toBe(true);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    await expectInvariants(server, user.accountId);
  });

  it('marks an undelivered receipt and refunds it when the policy says so', async () => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/sms/single', {
      recipients: ['+12125559999', '+12125550100'],
      text: 'Hello',
    });
    const done = await waitForFinal(
      c,
      res.body.messages.map((m: { id: string }) => m.id),
    );
    expect(done.map((m) => m.status).sort()).toEqual(['delivered', 'undelivered']);
    expect((await entries(user.accountId)).map((e) => e.kind)).toEqual([
      'trial_credit',
      'sms_debit',
      'sms_refund',
    ]);
    expect((await c.get('/api/balance')).body).toEqual({ balanceMinor: 499, currency: 'USD' });
    await expectInvariants(server, user.accountId);
  });
});

describe('bad input stores nothing', () => {
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['invalid number', { recipients: ['12345'], text: 'hi' }, 400, 'recipients'],
    ['empty text', { recipients: ['+14155550123'], text: '' }, 400, 'text'],
    ['text too long', { recipients: ['+14155550123'], text: 'a'.repeat(1531) }, 400, 'text'],
    [
      'schedule in the past',
      { recipients: ['+14155550123'], text: 'hi', scheduleAt: '2020-01-01T00:00:00Z' },
      400,
      'scheduleAt',
    ],
  ];
  it.each(cases)('%s → clear 4xx', async (_name, body, status, field) => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/sms/single', body);
    expect(res.status).toBe(status);
    expect(res.body.errors[field]?.[0]).toEqual(expect.any(String));
    expect(
      await server.ctx.db
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', user.accountId)
        .execute(),
    ).toEqual([]);
    expect(await entries(user.accountId)).toHaveLength(1);
  });

  it('unknown or unapproved sender ID → 422 with a clear message, nothing stored', async () => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'hi',
      senderId: 'NOPE',
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SENDER_ID_NOT_APPROVED');
    expect(res.headers.get('application-error')).toContain('NOPE');
    expect(
      await server.ctx.db
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', user.accountId)
        .execute(),
    ).toEqual([]);
    expect(await entries(user.accountId)).toHaveLength(1);
  });

  it('insufficient balance → 402 with a clear message, nothing stored', async () => {
    const c = server.client();
    const { user } = await c.register();
    const recipients = Array.from({ length: 9 }, (_, i) => `+4915123456${780 + i}`);
    const res = await c.post('/api/sms/single', { recipients, text: 'x'.repeat(1530) });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(res.headers.get('application-error')).toMatch(
      /Insufficient balance: this costs \$5\.40 and your balance is \$5\.00/,
    );
    expect(
      await server.ctx.db
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', user.accountId)
        .execute(),
    ).toEqual([]);
    expect(await entries(user.accountId)).toHaveLength(1);
  });
});

describe('SMS log', () => {
  it('pages by keyset, filters, and keeps accounts apart', async () => {
    const c = server.client();
    const { user } = await c.register();
    const recipients = ['+12125550101', '+12125550102', '+12125550103', '+12125550104', '+12125550105'];
    const sent = await c.post('/api/sms/single', { recipients, text: 'Page me' });
    await waitForFinal(
      c,
      sent.body.messages.map((m: { id: string }) => m.id),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await c.get(
        `/api/sms/log?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.items.map((i) => i.id));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    const filtered = await c.get('/api/sms/log?recipient=550103&status=delivered');
    expect(filtered.body.items.map((i: { recipient: string }) => i.recipient)).toEqual(['+12125550103']);
    expect((await c.get('/api/sms/log?text=nothing-like-this')).body.items).toEqual([]);
    expect((await c.get('/api/sms/log?cursor=garbage')).status).toBe(400);

    const other = server.client();
    await other.register();
    expect((await other.get('/api/sms/log')).body.items).toEqual([]);
    expect((await other.get(`/api/sms/log/${seen[0]}`)).status).toBe(404);
    const csv = await other.get('/api/sms/log/export.csv');
    expect(csv.body.trim().split('\n')).toHaveLength(1);
    await expectInvariants(server, user.accountId);
  });

  it('exports CSV safe against formula injection', async () => {
    const c = server.client();
    await c.register();
    const sent = await c.post('/api/sms/single', {
      recipients: ['+12125550110'],
      text: '=HYPERLINK("http://evil")',
    });
    await waitForFinal(c, [sent.body.messages[0].id]);
    const res = await c.get('/api/sms/log/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="sms-log-/);
    const lines = res.body.trim().split(/\r?\n/);
    // The SMS log's column names (after a BOM for spreadsheets, which the client's decoder drops); money in major units; the + of the
    // recipient is data (quoted, no apostrophe); a formula is defused.
    expect(lines[0]).toBe(
      'Date,Recipient,Sender,Status,Message,Encoding,Segments,Cost,Currency,Error,Submitted,Done,Message ID',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,"+12125550110",`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toMatch(/,GSM-7,1,\d+\.\d{2},USD,/);
  });
});

describe('scheduled SMS', () => {
  it('waits until its time, survives a worker restart, then is delivered', async () => {
    const c = server.client();
    const { user } = await c.register();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await c.post('/api/sms/single', {
      recipients: ['+12125550120'],
      text: 'Later',
      scheduleAt: at,
      timezone: 'Europe/Paris',
    });
    expect(res.status).toBe(202);
    const [m] = res.body.messages;
    expect(m.status).toBe('scheduled');
    expect(m.scheduledAt).toBe(at);
    // A maintenance pass before its time leaves it alone.
    await server.worker!.dispatcher.maintenance();
    expect((await c.get(`/api/sms/log/${m.id}`)).body.message.status).toBe('scheduled');
    const worker = await server.restartWorker();
    // Its time comes while the new worker runs: move it into the past instead of waiting for it.
    const due = new Date(Date.now() - 1000);
    const moved = await server.ctx.db
      .updateTable('send_queue')
      .set({ due_at: due })
      .where('message_id', '=', m.id)
      .where('scheduled', '=', true)
      .executeTakeFirst();
    expect(moved.numUpdatedRows).toBe(1n); // still waiting in the queue after the restart
    await server.ctx.db.updateTable('messages').set({ scheduled_at: due }).where('id', '=', m.id).execute();
    await worker.dispatcher.maintenance();
    const [done] = await waitForFinal(c, [m.id], 20_000);
    expect(done.status).toBe('delivered');
    expect(new Date(done.submittedAt).getTime()).toBeGreaterThanOrEqual(due.getTime());
    await expectInvariants(server, user.accountId);
  });
});

describe('canceling a scheduled SMS', () => {
  it('cancels and refunds it; another account cannot; a sent one cannot be canceled', async () => {
    const c = server.client();
    const { user } = await c.register();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await c.post('/api/sms/single', {
      recipients: ['+12125550130'],
      text: 'Later',
      scheduleAt: at,
    });
    const id = res.body.messages[0].id;
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(499);
    const other = server.client();
    await other.register();
    expect((await other.post(`/api/sms/log/${id}/cancel`)).status).toBe(404);
    expect((await c.get(`/api/sms/log/${id}`)).body.message.status).toBe('scheduled');
    // The id as the user typed it, in capitals: the same message, and its note is recorded.
    const cancel = await c.post(`/api/sms/log/${String(id).toUpperCase()}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.message.status).toBe('canceled');
    expect((await c.get(`/api/sms/log/${id}`)).body.message.error).toBe('Canceled by the user');
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(500);
    const again = await c.post(`/api/sms/log/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/no longer be canceled: it is canceled/);
    await expectInvariants(server, user.accountId);
  });
});

describe('sending with an approved sender ID', () => {
  it('uses the approved default sender, and a named approved one', async () => {
    const auto = await startServer(
      { SENDER_ID_APPROVAL: 'auto', SIMULATOR_DELAY_MS: '10', SIMULATOR_MIX: 'DELIVRD=100' },
      { worker: true },
    );
    try {
      const c = auto.client();
      await c.register();
      const created = await c.post('/api/sender-ids', {
        value: 'ACME',
        purpose: 'Order updates',
        sampleMessage: 'Your order shipped',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'approved', isDefault: true });
      await c.post('/api/sender-ids', {
        value: 'ACMEHELP',
        purpose: 'Support',
        sampleMessage: 'We are on it',
      });
      const byDefault = await c.post('/api/sms/single', { recipients: ['+12125550140'], text: 'Hi' });
      expect(byDefault.body.messages[0].sender).toBe('ACME');
      const named = await c.post('/api/sms/single', {
        recipients: ['+12125550141'],
        text: 'Hi',
        senderId: 'ACMEHELP',
      });
      expect(named.body.messages[0].sender).toBe('ACMEHELP');
      const done = await waitForFinal(c, [byDefault.body.messages[0].id, named.body.messages[0].id]);
      expect(done.map((m) => m.status)).toEqual(['delivered', 'delivered']);
      const sim = [...auto.worker!.simulator!.messages.values()];
      expect(sim.find((m) => m.dest === '12125550141')?.source).toBe('ACMEHELP');
    } finally {
      await auto.close();
    }
  });
});
