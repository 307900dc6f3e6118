import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants, waitForFinal } from '../../../test/messaging';
import { transact } from '../../platform/db';
import { createGroup, importFile, ukMobiles } from '../contacts/test-fixtures';
import { joinAs } from '../members/test-fixtures';
import { campaignsOf } from './campaigns.routes';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100', IMPORT_MAX_BYTES: String(64 * 1024) },
    { worker: true },
  );
  server.worker!.simulator!.setOptions({
    statByDestination: (dest: string) => (dest.endsWith('9999') ? 'UNDELIV' : undefined),
  });
});
afterAll(async () => {
  await server?.close();
});

async function topUp(accountId: string, amountMinor: number) {
  await transact(server.ctx.db, (trx) =>
    server.ctx.services.ledger.post(trx, {
      accountId,
      amountMinor,
      kind: 'top_up',
      reference: randomUUID(),
    }),
  );
}

function uploadFile(c: ApiClient, name: string, content: string | Uint8Array, type = 'text/csv') {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  return c.request('POST', '/api/campaigns/uploads', undefined, { raw: form });
}

async function balance(c: ApiClient) {
  return (await c.get('/api/balance')).body.balanceMinor as number;
}

async function stored(accountId: string) {
  const db = server.ctx.db;
  const [campaigns, recipients, messages, debits] = await Promise.all([
    db.selectFrom('campaigns').select('id').where('account_id', '=', accountId).execute(),
    db
      .selectFrom('campaign_recipients as r')
      .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
      .select('r.seq')
      .where('c.account_id', '=', accountId)
      .execute(),
    db.selectFrom('messages').select('id').where('account_id', '=', accountId).execute(),
    db
      .selectFrom('ledger_entries')
      .select('id')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'sms_debit')
      .execute(),
  ]);
  return {
    campaigns: campaigns.length,
    recipients: recipients.length,
    messages: messages.length,
    debits: debits.length,
  };
}

/** A personalised campaign from an upload (phone column "Phone"), scheduled an hour ahead. */
async function schedulePersonalised(c: ApiClient, uploadId: string, text: string) {
  const res = await c.post('/api/campaigns', {
    kind: 'personalised',
    uploadId,
    phoneColumn: 'Phone',
    text,
    scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res;
}

/** A campaign's stored recipients in order, as [number, values]. */
async function storedValues(campaignId: string) {
  const rows = await server.ctx.db
    .selectFrom('campaign_recipients')
    .select(['phone', 'vals'])
    .where('campaign_id', '=', campaignId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => [String(r.phone), r.vals]);
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('bulk campaigns', () => {
  it('answers the balance in an estimate only to a role that may read it', async () => {
    // A sender may send, but the balance is billing:read's.
    const owner = server.client();
    await owner.register();
    const source = { groupIds: [], numbers: '+14155550101', text: 'Hello' };
    const own = await owner.post('/api/campaigns/estimate', source);
    expect(own.status).toBe(200);
    expect(typeof own.body.balanceMinor).toBe('number');
    expect(own.body.balanceAfterMinor).toBe(own.body.balanceMinor - own.body.costMinor);
    const sender = (await joinAs(server, owner, 'sender')).client;
    const theirs = await sender.post('/api/campaigns/estimate', source);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ recipients: 1, balanceMinor: null, balanceAfterMinor: null });
  });

  it('names the line of a bad pasted number, not how many numbers came before it', async () => {
    // Issue 47, defect 6: with two numbers on the first line, the third line's "12345" was "Row 4".
    const c = server.client();
    await c.register();
    const est = await c.post('/api/campaigns/estimate', {
      groupIds: [],
      numbers: '+14155550101, +14155550102\r\n+14155550103\n12345\n\n+1 415 555 0104; nope',
      text: 'Hello',
    });
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    expect(est.body.issues.map((i: { row: number; value: string }) => [i.row, i.value])).toEqual([
      [3, '12345'],
      [5, 'nope'],
    ]);
  });

  it('sends to a group, pasted numbers and an uploaded file: de-duplicated, priced, debited once, delivered', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const g = await createGroup(c);
    const groupNumbers = ukMobiles(30);
    await importFile(c, g.id, 'g.csv', `phone\n${groupNumbers.join('\n')}\n`);
    // The file repeats 10 of the group's numbers, adds 20 US numbers and two bad rows.
    const us = Array.from({ length: 20 }, (_, i) => `+1415555${String(1000 + i)}`);
    const file = ['Phone,Name', ...groupNumbers.slice(0, 10), ...us, 'not a number', '12'].join('\n');
    const up = await uploadFile(c, 'list.csv', file);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ columns: ['Phone', 'Name'], phoneColumn: 'Phone', fileType: 'csv' });

    const source = {
      groupIds: [g.id],
      numbers: `${groupNumbers[0]}\n+14155550999, (415) 555-0998`,
      uploadId: up.body.uploadId,
      phoneColumn: 'Phone',
      text: 'Spring sale: 20% off today only',
    };
    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    // 30 UK + 2 pasted US + 20 file US; duplicates: 1 pasted + 10 in the file.
    expect(est.body).toMatchObject({
      recipients: 52,
      duplicates: 11,
      invalid: 2,
      segments: 1,
      encoding: 'GSM-7',
    });
    expect(est.body.costMinor).toBe(30 * 4 + 22 * 1);
    expect(est.body.issues.map((i: { reason: string }) => i.reason)).toEqual([
      'Not a valid phone number',
      'Not a valid phone number',
    ]);
    const issuesCsv = await c.post('/api/campaigns/estimate/issues.csv', source);
    expect(issuesCsv.status).toBe(200);
    expect(issuesCsv.body).toContain('not a number');
    expect(issuesCsv.body).toContain('Duplicate');

    const before = await balance(c);
    const res = await c.post('/api/campaigns', { ...source, name: 'Spring sale' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.campaign).toMatchObject({
      name: 'Spring sale',
      kind: 'bulk',
      recipients: 52,
      costMinor: 142,
    });
    expect(res.body.balanceMinor).toBe(before - 142);
    expect(await balance(c)).toBe(before - 142);
    const id = res.body.campaign.id as string;
    // The text is kept once: recipients are narrow rows.
    const rows = await server.ctx.db
      .selectFrom('campaign_recipients')
      .selectAll()
      .where('campaign_id', '=', id)
      .execute();
    expect(rows).toHaveLength(52);
    expect(rows.every((r) => r.vals === null)).toBe(true);

    const done = await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.status === 'completed' && b.counts.delivered === 52,
    );
    expect(done).toMatchObject({ materialised: 52, delivered: 52, failed: 0, pending: 0, deliveryRate: 1 });
    const page = await c.get(`/api/campaigns/${id}/messages?limit=50`);
    expect(page.body.items).toHaveLength(50);
    expect(page.body.items[0]).toMatchObject({ campaignId: id, text: source.text, status: 'delivered' });
    const next = await c.get(`/api/campaigns/${id}/messages?limit=50&cursor=${page.body.nextCursor}`);
    expect(next.body.items).toHaveLength(2);
    // Every filter of the SMS log works within the campaign (text, sender and dates were ignored).
    const count = async (q: string) =>
      ((await c.get(`/api/campaigns/${id}/messages?limit=100&${q}`)).body.items as unknown[]).length;
    expect(await count('text=spring')).toBe(52);
    expect(await count('text=zzzz')).toBe(0);
    expect(await count(`sender=${encodeURIComponent(done.sender)}`)).toBe(52);
    expect(await count('sender=NOBODY')).toBe(0);
    expect(await count(`from=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`)).toBe(
      0,
    );
    expect(await count(`to=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`)).toBe(0);
    expect(await count(`from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`)).toBe(
      52,
    );
    const csv = await c.get(`/api/campaigns/${id}/messages/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(53);
    const timeline = await c.get(`/api/campaigns/${id}/timeline`);
    expect(timeline.body.reduce((a: number, p: { sent: number }) => a + p.sent, 0)).toBe(52);
    // The report lists it, and the filters find it.
    const list = await c.get('/api/campaigns?q=spring&status=completed');
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect((await c.get('/api/campaigns?q=nothing-like-it')).body.items).toEqual([]);
    await expectInvariants(server, user.accountId);
  });

  it('resends to the failed recipients as a new campaign', async () => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/campaigns', {
      numbers: '+14155559999\n+14155550001\n+14155550002',
      text: 'Hello',
    });
    expect(res.status).toBe(202);
    const id = res.body.campaign.id;
    await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.counts.undelivered === 1 && b.delivered === 2,
    );
    const again = await c.post(`/api/campaigns/${id}/resend-failed`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body.campaign).toMatchObject({ recipients: 1, resendOf: id, costMinor: 1 });
    await expectInvariants(server, user.accountId);
  });

  it('refuses each bad input with a clear 4xx, storing and debiting nothing', async () => {
    const c = server.client();
    const { user } = await c.register();
    const before = await balance(c);
    const post = (body: object) => c.post('/api/campaigns', { text: 'Hi', ...body });

    const big = await uploadFile(c, 'big.csv', `phone\n${'+14155550123\n'.repeat(8000)}`);
    expect(big.status).toBe(413);
    const png = await uploadFile(
      c,
      'numbers.csv',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
    );
    expect(png.status).toBe(415);
    expect(png.body.message).toMatch(/CSV or TXT/);
    const empty = await uploadFile(c, 'empty.csv', '');
    expect([400, 422]).toContain(empty.status);

    const noPhone = await uploadFile(c, 'names.csv', 'Name,City\nAnn,Leeds\nBob,York\n');
    expect(noPhone.status).toBe(201);
    const r1 = await post({ uploadId: noPhone.body.uploadId });
    expect(r1.status).toBe(400);
    expect(r1.body.errors.phoneColumn[0]).toMatch(/no phone column/);

    const allBad = await post({ numbers: 'abc\n123\nnope' });
    expect(allBad.status).toBe(422);
    expect(allBad.body.message).toMatch(/None of the numbers is valid/);

    const people = await uploadFile(c, 'people.csv', 'Phone,Name\n+14155550123,Ann\n');
    const placeholder = await post({
      kind: 'personalised',
      uploadId: people.body.uploadId,
      text: 'Hi {{First}}',
    });
    expect(placeholder.status).toBe(400);
    expect(placeholder.body.errors.text[0]).toMatch(/No column matches \{\{First\}\}/);

    const past = await post({
      numbers: '+14155550123',
      scheduleAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.errors.scheduleAt[0]).toMatch(/future/);

    const long = await post({ numbers: '+14155550123', text: 'x'.repeat(1601) });
    expect(long.status).toBe(400);
    expect(long.body.errors.text[0]).toMatch(/too long/);

    // More than the balance: nothing stored, nothing debited.
    const poor = await post({ numbers: ukMobiles(200).join('\n') });
    expect(poor.status).toBe(402);
    expect(poor.body.message).toMatch(/Insufficient balance/);

    expect(await stored(user.accountId)).toEqual({ campaigns: 0, recipients: 0, messages: 0, debits: 0 });
    // The 200 recipients of the refused send were written before the debit failed: the rollback took
    // them too (recipients have no foreign key to campaigns, so nothing else would).
    const orphans = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM campaign_recipients r
       WHERE NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = r.campaign_id)`.execute(server.ctx.db);
    expect(orphans.rows[0]!.n).toBe(0);
    expect(await balance(c)).toBe(before);
    await expectInvariants(server, user.accountId);
  });

  it('stores recipients with no per-row trigger (a foreign key check cost 2.5 µs of each 1M-row COPY)', async () => {
    const triggers = await sql<{ tgname: string }>`
      SELECT tgname FROM pg_trigger WHERE tgrelid = 'campaign_recipients'::regclass`.execute(server.ctx.db);
    expect(triggers.rows).toEqual([]);
  });
});

describe('personalised campaigns', () => {
  it('previews rows as sent, flags bad rows, prices each row by its own segments', async () => {
    const c = server.client();
    const { user } = await c.register();
    const long = 'x'.repeat(150);
    const file = [
      'Mobile,First,Code',
      '+14155550101,Ann,A1',
      `+14155550102,${long},B2`,
      '+14155550103,,C3',
      'bad,Dan,D4',
      '+14155550105,Émile,E5',
    ].join('\n');
    const up = await uploadFile(c, 'people.csv', file);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.phoneColumn).toBe('Mobile');
    const source = {
      kind: 'personalised',
      uploadId: up.body.uploadId,
      phoneColumn: 'Mobile',
      text: 'Hi {{First}}, your code is {{Code}}',
    };
    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    expect(est.body).toMatchObject({ recipients: 3, invalid: 2 });
    const byRow = Object.fromEntries(est.body.preview.map((p: { row: number }) => [p.row, p]));
    expect(byRow[2]).toMatchObject({
      text: 'Hi Ann, your code is A1',
      segments: 1,
      costMinor: 1,
      problem: null,
    });
    expect(byRow[3]).toMatchObject({ segments: 2, costMinor: 2 });
    expect(byRow[4].problem).toBe('Missing value for {{First}}');
    expect(byRow[5].problem).toBe('Not a valid phone number');
    expect(byRow[6]).toMatchObject({ text: 'Hi Émile, your code is E5', encoding: 'GSM-7' });
    expect(est.body.costMinor).toBe(1 + 2 + 1);

    const res = await c.post('/api/campaigns', source);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.campaign).toMatchObject({ kind: 'personalised', recipients: 3, costMinor: 4 });
    const id = res.body.campaign.id;
    await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.status === 'completed' && b.delivered === 3,
    );
    const page = await c.get(`/api/campaigns/${id}/messages`);
    expect(page.body.items.map((m: { text: string }) => m.text).sort()).toEqual(
      [`Hi ${long}, your code is B2`, 'Hi Ann, your code is A1', 'Hi Émile, your code is E5'].sort(),
    );
    await expectInvariants(server, user.accountId);
  });
  it('stores values with tabs, line breaks, backslashes and a literal \\N exactly; flags a value holding U+0000', async () => {
    const c = server.client();
    const { user } = await c.register();
    // UTF-16 (as Excel saves "Unicode text"): the sniffing lets one control character through.
    const text = [
      'Phone,Name',
      '+14155550121,"tab\there"',
      '+14155550122,"two\nlines"',
      '+14155550123,back\\slash \\N',
      '+14155550124,nul\u0000here',
    ].join('\n');
    const file = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const up = await uploadFile(c, 'odd.csv', file);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const res = await schedulePersonalised(c, up.body.uploadId, 'Hi {{Name}}');
    expect(res.body.campaign).toMatchObject({ recipients: 3, invalid: 1 });
    expect(await storedValues(res.body.campaign.id)).toEqual([
      ['14155550121', 'tab\there'],
      ['14155550122', 'two\nlines'],
      ['14155550123', 'back\\slash \\N'],
    ]);
    expect(user).toBeTruthy();
  });
});

describe('XLSX recipients', () => {
  it('accepts a personalised campaign from a workbook: each row stored with its values, invalid rows left out', async () => {
    const c = server.client();
    await c.register();
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('People');
    sheet.addRow(['Phone', 'Name']);
    sheet.addRow(['+14155550111', 'Ada']);
    sheet.addRow([14155550112, 'Bob']); // a number cell, as spreadsheets store phone numbers
    sheet.addRow(['not a phone', 'Cy']);
    sheet.addRow(['+14155550111', 'Ada again']);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const up = await uploadFile(
      c,
      'people.xlsx',
      bytes,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.fileType).toBe('xlsx');
    const res = await schedulePersonalised(c, up.body.uploadId, 'Hello {{Name}}');
    expect(res.body.campaign).toMatchObject({ recipients: 2, invalid: 1, duplicates: 1 });
    expect(await storedValues(res.body.campaign.id)).toEqual([
      ['14155550111', 'Ada'],
      ['14155550112', 'Bob'],
    ]);
  });
});

/** A new account's campaign of 3 numbers, scheduled an hour ahead. */
async function scheduledCampaign(text: string) {
  const c = server.client();
  const { user } = await c.register();
  await topUp(user.accountId, 1_000);
  const res = await c.post('/api/campaigns', {
    numbers: ukMobiles(3).join('\n'),
    text,
    scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { c, user, id: res.body.campaign.id as string };
}

describe('campaign lifecycle', () => {
  it('refreshes a live campaign’s counts every second, and a very large one’s less often', async () => {
    const { id } = await scheduledCampaign('Counts');
    const db = server.ctx.db;
    // A paused campaign of `materialised` messages whose counts are `ageSeconds` old.
    const counted = async (materialised: number, ageSeconds: number) => {
      await sql`UPDATE bulk_campaigns SET status = 'paused', materialised = ${materialised}, stats = '{}'::jsonb,
                       stats_at = now() - make_interval(secs => ${ageSeconds})
                 WHERE campaign_id = ${id}::uuid`.execute(db);
      await campaignsOf(server.ctx).tick();
      const row = await sql<{ fresh: boolean }>`
        SELECT stats_at > now() - interval '1 second' AS fresh FROM bulk_campaigns WHERE campaign_id = ${id}::uuid`.execute(
        db,
      );
      return row.rows[0]?.fresh;
    };
    expect(await counted(3, 2)).toBe(true);
    // 500,000 messages: every 5 s.
    expect(await counted(500_000, 2)).toBe(false);
    expect(await counted(500_000, 6)).toBe(true);
  });

  it('draws a 100,000-message campaign’s timeline once a second, however often it is asked', async () => {
    const { c, user, id } = await scheduledCampaign('Timeline');
    const db = server.ctx.db;
    await sql`INSERT INTO messages (account_id, campaign_id, recipient, sender, body, encoding, segments,
                                    price_minor, currency, status, validity_until, submitted_at)
              SELECT ${user.accountId}::uuid, ${id}::uuid, '+4477' || lpad(g::text, 8, '0'), 'Wren', 'Hello',
                     'GSM-7', 1, 1, 'USD', 'sent', now() + interval '1 day', now()
                FROM generate_series(1, 100000) g`.execute(db);
    const sent = async () => {
      const t = await c.get(`/api/campaigns/${id}/timeline`);
      expect(t.status).toBe(200);
      return (t.body as { sent: number }[]).reduce((a, p) => a + p.sent, 0);
    };
    expect(await sent()).toBe(100_000);
    await sql`UPDATE messages SET submitted_at = NULL
               WHERE id IN (SELECT id FROM messages WHERE campaign_id = ${id}::uuid LIMIT 10)`.execute(db);
    // Asked again at once (each open screen asks after each push): the minutes just drawn are shared.
    expect(await sent()).toBe(100_000);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await sent()).toBe(99_990);
  });

  it('schedules, reschedules, and cancels with the whole cost refunded exactly once', async () => {
    const c = server.client();
    const { user } = await c.register();
    const before = await balance(c);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await c.post('/api/campaigns', {
      numbers: ukMobiles(25).join('\n'),
      text: 'Later',
      scheduleAt: at,
      timezone: 'Europe/London',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.campaign.id;
    expect(res.body.campaign).toMatchObject({
      status: 'scheduled',
      timezone: 'Europe/London',
      costMinor: 100,
    });
    expect(await balance(c)).toBe(before - 100);
    await campaignsOf(server.ctx).tick();
    expect((await c.get(`/api/campaigns/${id}`)).body.materialised).toBe(0);

    const later = new Date(Date.now() + 7_200_000).toISOString();
    const moved = await c.post(`/api/campaigns/${id}/reschedule`, { scheduleAt: later });
    expect(moved.status).toBe(200);
    expect(moved.body.scheduledAt).toBe(later);
    const past = await c.post(`/api/campaigns/${id}/reschedule`, { scheduleAt: new Date(0).toISOString() });
    expect(past.status).toBe(400);

    const canceled = await c.post(`/api/campaigns/${id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', refundedMinor: 100 });
    expect(await balance(c)).toBe(before);
    const again = await c.post(`/api/campaigns/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(await balance(c)).toBe(before);
    expect((await c.post(`/api/campaigns/${id}/reschedule`, { scheduleAt: later })).status).toBe(409);
    await expectInvariants(server, user.accountId);
  });

  it('pauses (waiting messages leave the ready queue), resumes, and cancels mid-send refunding what was not sent', async () => {
    const c = server.client();
    const { user } = await c.register();
    const before = await balance(c);
    // 60 a minute: one recipient a second becomes a message.
    const res = await c.post('/api/campaigns', {
      numbers: ukMobiles(40).join('\n'),
      text: 'Paced',
      ratePerMinute: 60,
    });
    expect(res.status).toBe(202);
    const id = res.body.campaign.id;
    const svc = campaignsOf(server.ctx);
    await new Promise((r) => setTimeout(r, 2100));
    await svc.tick();
    const mid = (await c.get(`/api/campaigns/${id}`)).body;
    expect(mid.materialised).toBeGreaterThanOrEqual(1);
    expect(mid.materialised).toBeLessThan(10);
    const paused = await c.post(`/api/campaigns/${id}/pause`);
    expect(paused.body.status).toBe('paused');
    const materialised = paused.body.materialised;
    // Its queued messages carry the campaign in the work queue (0019), and none of them is ready now.
    const queue = await sql<{ tagged: number; ready: number; total: number }>`
      SELECT count(*) FILTER (WHERE q.campaign_id = m.campaign_id)::int AS tagged,
             count(*) FILTER (WHERE q.leased_by IS NULL AND NOT q.scheduled)::int AS ready,
             count(*)::int AS total
        FROM send_queue q JOIN messages m ON m.id = q.message_id
       WHERE m.campaign_id = ${id}::uuid`.execute(server.ctx.db);
    expect(queue.rows[0]!.tagged).toBe(queue.rows[0]!.total);
    expect(queue.rows[0]!.ready).toBe(0);
    await new Promise((r) => setTimeout(r, 1200));
    await svc.tick();
    expect((await c.get(`/api/campaigns/${id}`)).body.materialised).toBe(materialised);
    expect((await c.post(`/api/campaigns/${id}/resume`)).body.status).toBe('sending');
    expect((await c.post(`/api/campaigns/${id}/resume`)).status).toBe(409);

    const canceled = await c.post(`/api/campaigns/${id}/cancel`);
    expect(canceled.status).toBe(200);
    const final = await waitFor(
      async () => (await c.get(`/api/campaigns/${id}`)).body,
      (b) => b.pending === 0,
    );
    // Refunded: every recipient never queued, and every queued message canceled; only messages that
    // reached the SMSC are paid for.
    const sentCount = final.counts.delivered + final.counts.sent + final.counts.undelivered;
    expect(await balance(c)).toBe(before - sentCount * 4);
    // The report's refund is all of it: the recipients never queued (one entry) and the queued
    // messages canceled one by one (it showed only the first).
    expect(final.refundedMinor).toBe((40 - sentCount) * 4);
    await expectInvariants(server, user.accountId);
  });

  it('reports as refunded both the recipients never queued and the queued messages a cancel refunds', async () => {
    const c = server.client();
    const { user } = await c.register();
    // One message a second for the account: most of the campaign waits queued when it is canceled.
    await server.ctx.db
      .updateTable('accounts')
      .set({ max_per_second: 1 })
      .where('id', '=', user.accountId)
      .execute();
    const before = await balance(c);
    const res = await c.post('/api/campaigns', { numbers: ukMobiles(30).join('\n'), text: 'Slow lane' });
    expect(res.status).toBe(202);
    const id = res.body.campaign.id as string;
    const each = res.body.campaign.costMinor / 30;
    const svc = campaignsOf(server.ctx);
    await waitFor(
      async () => {
        await svc.tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.materialised === 30 && b.counts.queued > 10,
    );
    const canceled = await c.post(`/api/campaigns/${id}/cancel`);
    expect(canceled.status).toBe(200);
    // The answer shows what the cancel did (its counts were up to a refresh old).
    expect(canceled.body.counts.canceled).toBeGreaterThan(10);
    expect(canceled.body.refundedMinor).toBe(canceled.body.counts.canceled * each);
    const final = await waitFor(
      async () => (await c.get(`/api/campaigns/${id}`)).body,
      (b) => b.pending === 0,
    );
    expect(final.counts.canceled).toBeGreaterThan(10);
    const paid = 30 - final.counts.canceled;
    expect(await balance(c)).toBe(before - paid * each);
    // Every recipient was queued, so all of the refund is per message (it showed 0).
    expect(final.refundedMinor).toBe(final.counts.canceled * each);
    await expectInvariants(server, user.accountId);
  });

  it('refuses a pause with nothing left to hold: every recipient queued and every message on its way', async () => {
    const c = server.client();
    await c.register();
    const res = await c.post('/api/campaigns', { numbers: ukMobiles(3).join('\n'), text: 'All out' });
    expect(res.status).toBe(202);
    const id = res.body.campaign.id as string;
    const svc = campaignsOf(server.ctx);
    await waitFor(
      async () => {
        await svc.tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.materialised === 3,
    );
    // Whatever is still in the queue is with a worker (leased), as when the SMSC has them all.
    await sql`UPDATE send_queue SET leased_by = 'elsewhere', lease_until = now() + interval '1 minute'
               WHERE campaign_id = ${id}::uuid AND leased_by IS NULL`.execute(server.ctx.db);
    const paused = await c.post(`/api/campaigns/${id}/pause`);
    expect(paused.status).toBe(409);
    expect(paused.body.message).toBe(
      'Nothing is left to pause: every message of this campaign is already on its way',
    );
    // Nothing changed: it completes by itself once its messages settle.
    expect((await c.get(`/api/campaigns/${id}`)).body.status).toBe('sending');
  });

  it("keeps every campaign route to its own account (another account's id is a 404)", async () => {
    const owner = server.client();
    await owner.register();
    const res = await owner.post('/api/campaigns', {
      numbers: '+14155550123',
      text: 'Mine',
      scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const id = res.body.campaign.id;
    const up = await uploadFile(owner, 'x.csv', 'phone\n+14155550123\n');
    const other = server.client();
    await other.register();
    for (const [method, path] of [
      ['GET', `/api/campaigns/${id}`],
      ['GET', `/api/campaigns/${id}/messages`],
      ['GET', `/api/campaigns/${id}/messages/export.csv`],
      ['GET', `/api/campaigns/${id}/timeline`],
      ['POST', `/api/campaigns/${id}/pause`],
      ['POST', `/api/campaigns/${id}/resume`],
      ['POST', `/api/campaigns/${id}/cancel`],
      ['POST', `/api/campaigns/${id}/resend-failed`],
    ] as const) {
      const r = await other.request(method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const rs = await other.post(`/api/campaigns/${id}/reschedule`, {
      scheduleAt: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(rs.status).toBe(404);
    const theirs = await other.post('/api/campaigns', { uploadId: up.body.uploadId, text: 'Hi' });
    expect(theirs.status).toBe(400);
    expect((await other.get('/api/campaigns')).body.items).toEqual([]);
    expect((await owner.get(`/api/campaigns/${id}`)).body.status).toBe('scheduled');
  });
});

/** A campaign scheduled an hour ahead (so nothing is queued yet), to `numbers`. */
async function scheduledTo(c: ApiClient, numbers: string[], text: string, extra: object = {}) {
  const res = await c.post('/api/campaigns', {
    numbers: numbers.join('\n'),
    text,
    scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.campaign as { id: string; costMinor: number; recipients: number; suppressed: number };
}

/** Brings a scheduled campaign's time to now: the next pass starts it. */
async function startNow(id: string) {
  await sql`UPDATE bulk_campaigns SET scheduled_at = now() WHERE campaign_id = ${id}::uuid`.execute(
    server.ctx.db,
  );
}

/** The account's ledger entries whose reference starts with `prefix`. */
async function entries(accountId: string, prefix: string) {
  return server.ctx.db
    .selectFrom('ledger_entries')
    .select(['kind', 'amount_minor', 'reference'])
    .where('account_id', '=', accountId)
    .where('reference', 'like', `${prefix}%`)
    .execute();
}

/** The campaign's message rows, and what the SMSC simulator was sent with its text, per number. */
async function sentTo(id: string, text: string) {
  const rows = await server.ctx.db
    .selectFrom('messages')
    .select('recipient')
    .where('campaign_id', '=', id)
    .execute();
  const submitted = [...server.worker!.simulator!.messages.values()]
    .filter((m) => m.text === text)
    .map((m) => `+${m.dest}`);
  return { rows: rows.map((r) => r.recipient).sort(), submitted: [...new Set(submitted)].sort() };
}

describe('recipients who opt out after the campaign was accepted', () => {
  it('sends nothing to a number that sent STOP before it was queued: counted as suppressed, its price refunded, the campaign completes', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 1_000);
    const [stopper] = ukMobiles(1, 700_000); // 4 minor units a message
    const us = ['+14155557001', '+14155557002', '+14155557003']; // 1 each
    // The account texted the handset before: its STOP is attributed to this account.
    const hello = await c.post('/api/sms/single', { recipients: [stopper], text: 'Welcome' });
    expect(hello.status, JSON.stringify(hello.body)).toBe(202);
    await waitForFinal(c, [hello.body.messages[0].id]);

    const text = 'Opt-out between acceptance and queueing';
    const camp = await scheduledTo(c, [us[0], us[1], stopper, us[2]], text);
    expect(camp).toMatchObject({ recipients: 4, suppressed: 0, costMinor: 3 + 4 });
    const sim = server.worker!.simulator!;
    expect((await sim.sendMo({ from: stopper.slice(1), to: 'Wren', text: 'STOP' })).statuses).toEqual([0]);
    expect((await c.get('/api/suppressions')).body.items).toEqual([
      expect.objectContaining({ phone: stopper, reason: 'stop_keyword' }),
    ]);
    const before = await balance(c);

    await startNow(camp.id);
    const done = await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${camp.id}`)).body;
      },
      (b) => b.status === 'completed' && b.delivered === 3,
    );
    // The report balances: the three sent, the one that opted out counted with the suppressed.
    expect(done).toMatchObject({
      recipients: 3,
      suppressed: 1,
      materialised: 3,
      delivered: 3,
      failed: 0,
      pending: 0,
      costMinor: 7,
      refundedMinor: 4,
    });
    expect(done.recipients + done.invalid + done.duplicates + done.suppressed).toBe(4);
    expect(Object.values(done.counts as Record<string, number>).reduce((a, n) => a + n, 0)).toBe(
      done.recipients,
    );
    // No message to the number that opted out, and nothing submitted to it.
    expect(await sentTo(camp.id, text)).toEqual({ rows: [...us].sort(), submitted: [...us].sort() });
    // Refunded exactly its price, in one entry, and the balance moved by that only.
    expect(await entries(user.accountId, `campaign:${camp.id}:`)).toEqual([
      { kind: 'sms_refund', amount_minor: 4, reference: `campaign:${camp.id}:suppressed:0` },
    ]);
    expect(await balance(c)).toBe(before + 4);
    await expectInvariants(server, user.accountId);
  });

  it('completes a campaign whose recipients all opted out before they were queued, refunding all of it', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 1_000);
    const numbers = ukMobiles(2, 700_010);
    const text = 'Nobody left to send to';
    const camp = await scheduledTo(c, numbers, text);
    for (const phone of numbers) {
      expect((await c.post('/api/suppressions', { phone })).status).toBeLessThan(300);
    }
    const before = await balance(c);
    await startNow(camp.id);
    // One pass: nothing is queued, and nothing is left for a later pass to complete it after.
    await campaignsOf(server.ctx).tick();
    const done = (await c.get(`/api/campaigns/${camp.id}`)).body;
    expect(done).toMatchObject({
      status: 'completed',
      recipients: 0,
      suppressed: 2,
      materialised: 0,
      pending: 0,
      refundedMinor: camp.costMinor,
    });
    expect(await sentTo(camp.id, text)).toEqual({ rows: [], submitted: [] });
    expect(await balance(c)).toBe(before + camp.costMinor);
    await expectInvariants(server, user.accountId);
  });

  it("screens against the campaign's own account only: another account's opt-out of the same number does not stop it", async () => {
    const a = server.client();
    const { user } = await a.register();
    await topUp(user.accountId, 1_000);
    const b = server.client();
    await b.register();
    const [shared, ownStop] = ['+14155557011', '+14155557012'];
    const text = 'Only my own list counts';
    const camp = await scheduledTo(a, [shared, ownStop], text);
    // b's list has the shared number; a's list has the other one.
    expect((await b.post('/api/suppressions', { phone: shared })).status).toBeLessThan(300);
    expect((await a.post('/api/suppressions', { phone: ownStop })).status).toBeLessThan(300);
    await startNow(camp.id);
    const done = await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await a.get(`/api/campaigns/${camp.id}`)).body;
      },
      (r) => r.status === 'completed' && r.delivered === 1,
    );
    expect(done).toMatchObject({ recipients: 1, suppressed: 1, delivered: 1, refundedMinor: 1 });
    expect(await sentTo(camp.id, text)).toEqual({ rows: [shared], submitted: [shared] });
    await expectInvariants(server, user.accountId);
  });

  it('an opt-out while a batch that screened the number before it is still being stored cancels its message: nothing is sent to it, its price is refunded', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 1_000);
    // Paced (two a second), so the batch locks the account's send counter after its screen, and the
    // last recipient is not due for 1.5 s: no worker takes its message before the opt-out can.
    await server.ctx.db
      .updateTable('accounts')
      .set({ max_per_second: 2 })
      .where('id', '=', user.accountId)
      .execute();
    await sql`INSERT INTO account_send_counters (account_id, day)
              VALUES (${user.accountId}::uuid, (now() AT TIME ZONE 'UTC')::date)
              ON CONFLICT (account_id) DO NOTHING`.execute(server.ctx.db);
    const numbers = ukMobiles(4, 700_030); // 4 minor units each
    const stopper = numbers[3];
    const text = 'Opt-out during the batch';
    const camp = await scheduledTo(c, numbers, text);
    const before = await balance(c);

    const blocker = new pg.Client({ connectionString: server.databaseUrl });
    await blocker.connect();
    const waiters = async (like: string) =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE ${like}`.execute(
          server.ctx.db,
        )
      ).rows[0].n;
    let optOut: Promise<{ status: number }> | undefined;
    let ticking: Promise<void> | undefined;
    try {
      // Hold the account's send counter: the batch stops in its admission, after its screen read.
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM account_send_counters WHERE account_id = $1 FOR UPDATE', [
        user.accountId,
      ]);
      await startNow(camp.id);
      ticking = campaignsOf(server.ctx).tick();
      await waitFor(
        () => waiters('%account_send_counters%'),
        (n) => n > 0,
      );
      // The number opts out now: its suppression is stored, and its cancel reads what waits to it
      // (nothing yet: the batch has not stored its messages), or waits for the batch.
      let settled = false;
      optOut = c.post('/api/suppressions', { phone: stopper }).finally(() => {
        settled = true;
      });
      await waitFor(
        async () => settled || (await waiters('%pg_advisory_xact_lock(hashtextextended%')) > 0,
        (done) => done,
      );
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    expect((await optOut).status).toBeLessThan(300);
    await ticking;

    const done = await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${camp.id}`)).body;
      },
      // (the counts are refreshed once a second: a completed campaign's may not show its messages yet)
      (b) => b.status === 'completed' && b.pending === 0 && b.delivered >= 3,
    );
    expect(done.delivered).toBe(3);
    // Nothing reached the SMSC for the number that opted out; its message, if the batch stored one,
    // was canceled and refunded.
    const sent = await sentTo(camp.id, text);
    expect(sent.submitted).toEqual(numbers.slice(0, 3));
    const toStopper = await server.ctx.db
      .selectFrom('messages')
      .select(['id', 'status', 'refunded'])
      .where('campaign_id', '=', camp.id)
      .where('recipient', '=', stopper)
      .execute();
    expect(toStopper.length).toBeLessThanOrEqual(1);
    if (toStopper.length === 1) {
      expect(toStopper[0]).toMatchObject({ status: 'canceled', refunded: true });
      expect(await entries(user.accountId, toStopper[0].id)).toEqual([
        { kind: 'sms_refund', amount_minor: 4, reference: toStopper[0].id },
      ]);
    } else {
      expect(done).toMatchObject({ recipients: 3, suppressed: 1 });
    }
    // Its price came back once, and nothing else moved the balance.
    expect(await balance(c)).toBe(before + 4);
    await expectInvariants(server, user.accountId);
  });

  it('a cancel after an opt-out reports both refunds: the opted-out recipient and those never queued', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 1_000);
    const numbers = ukMobiles(5, 700_020);
    const camp = await scheduledTo(c, numbers, 'Paced with an opt-out', { ratePerMinute: 60 });
    expect((await c.post('/api/suppressions', { phone: numbers[0] })).status).toBeLessThan(300);
    const before = await balance(c);
    await startNow(camp.id);
    const svc = campaignsOf(server.ctx);
    // One recipient a second: the first is read (and screened) about a second after the start.
    await waitFor(
      async () => {
        await svc.tick();
        return (await c.get(`/api/campaigns/${camp.id}`)).body;
      },
      (r) => r.suppressed === 1,
    );
    const canceled = await c.post(`/api/campaigns/${camp.id}/cancel`);
    expect(canceled.status).toBe(200);
    const final = await waitFor(
      async () => (await c.get(`/api/campaigns/${camp.id}`)).body,
      (r) => r.pending === 0,
    );
    const paid = final.counts.delivered + final.counts.sent + final.counts.undelivered;
    expect(final.recipients).toBe(4);
    expect(final.refundedMinor).toBe((5 - paid) * 4);
    expect(await balance(c)).toBe(before + (5 - paid) * 4);
    await expectInvariants(server, user.accountId);
  });
});
