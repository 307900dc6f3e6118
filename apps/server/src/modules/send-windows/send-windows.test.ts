import { randomUUID } from 'node:crypto';
import type { SendWindow } from '@wren/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants } from '../../../test/messaging';
import { transact } from '../../platform/db';
import { ukMobiles } from '../contacts/test-fixtures';
import { joinAs } from '../members/test-fixtures';
import { localParts, nextOpen } from './window-time';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
});
afterAll(async () => {
  await server?.close();
});

async function topUp(accountId: string, amountMinor: number) {
  await transact(server.ctx.db, (trx) =>
    server.ctx.services.ledger.post(trx, { accountId, amountMinor, kind: 'top_up', reference: randomUUID() }),
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
/**
 * A window open now in New York and closed in Los Angeles (3 hours behind) and London (5 ahead):
 * every day, from New York's current hour for two hours (past midnight: overnight).
 */
function windowOpenInNewYork(zone = 'America/New_York'): SendWindow {
  const h = Math.floor(localParts(new Date(), zone).minutes / 60);
  const end = h + 2;
  return {
    days: [1, 2, 3, 4, 5, 6, 7],
    start: `${pad(h)}:00`,
    end: end === 24 ? '24:00' : `${pad(end % 24)}:00`,
    overnight: end > 24,
  };
}

const NY = ['+12125550101', '+12125550102', '+12125550103'];
const LA = ['+13105550101', '+13105550102'];
const LONDON = ukMobiles(2, 500);

async function campaignMessages(campaignId: string) {
  const rows = await server.ctx.db
    .selectFrom('messages')
    .select(['recipient', 'status', 'next_attempt_at', 'validity_until'])
    .where('campaign_id', '=', campaignId)
    .execute();
  return rows;
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(v).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOf = (rows: { recipient: string; status: string }[], numbers: string[]) =>
  rows.filter((r) => numbers.includes(r.recipient)).map((r) => r.status);

describe('send windows', () => {
  it('a campaign to three zones sends to the open one, holds the others (queued, not expired, charged once), and each goes when its window opens', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const sendWindow = windowOpenInNewYork();
    const source = { numbers: [...NY, ...LA, ...LONDON].join('\n'), text: 'Hello in your hours', sendWindow };

    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    const plan = est.body.sendWindows;
    expect(plan).toMatchObject({ source: 'campaign', fallbackZone: 'UTC', window: sendWindow });
    type Zone = {
      timeZone: string;
      recipients: number;
      openNow: boolean;
      opensAt: string;
      opensAtLocal: string;
    };
    const byZone: Record<string, Zone> = Object.fromEntries(
      (plan.zones as Zone[]).map((z) => [z.timeZone, z]),
    );
    expect(Object.keys(byZone).sort()).toEqual(['America/Los_Angeles', 'America/New_York', 'Europe/London']);
    expect(byZone['America/New_York']).toMatchObject({ recipients: 3, openNow: true });
    expect(byZone['America/Los_Angeles']).toMatchObject({ recipients: 2, openNow: false });
    expect(byZone['Europe/London']).toMatchObject({ recipients: 2, openNow: false });
    expect(byZone['Europe/London']!.opensAtLocal.slice(11)).toBe(sendWindow.start);
    const laOpens = new Date(byZone['America/Los_Angeles']!.opensAt);
    const londonOpens = new Date(byZone['Europe/London']!.opensAt);
    expect(plan.lastSendAt).toBe(new Date(Math.max(+laOpens, +londonOpens)).toISOString());

    const before = (await c.get('/api/balance')).body.balanceMinor as number;
    const res = await c.post('/api/campaigns', source);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.campaign.id as string;
    expect(res.body.campaign.sendWindow).toEqual(sendWindow);
    const cost = res.body.campaign.costMinor as number;
    expect(before - res.body.balanceMinor).toBe(cost);

    // New York's go; Los Angeles' and London's wait queued, due when their window opens, valid after.
    let rows = await waitFor(
      () => campaignMessages(id),
      (r) => r.length === 7 && statusOf(r, NY).every((s) => s === 'delivered'),
    );
    await new Promise((r) => setTimeout(r, 1500)); // a few dispatcher and sweep passes
    rows = await campaignMessages(id);
    for (const r of rows.filter((x) => [...LA, ...LONDON].includes(x.recipient))) {
      expect(r.status).toBe('queued');
      const opens = LA.includes(r.recipient) ? laOpens : londonOpens;
      // The estimate's "opens at" (from a moment earlier) is the message's not-before.
      expect(Math.abs(r.next_attempt_at!.getTime() - opens.getTime())).toBeLessThan(60_000);
      expect(r.validity_until.getTime()).toBeGreaterThan(opens.getTime());
    }
    expect((await c.get(`/api/campaigns/${id}`)).body.status).toBe('sending');

    // The clock moves into Los Angeles' window: the dispatcher's time is PostgreSQL's now(), so
    // the not-before of those messages is put behind it.
    const moveInto = async (numbers: string[]) => {
      await sql`UPDATE send_queue q SET due_at = now() - interval '1 second'
                  FROM messages m WHERE m.id = q.message_id AND m.campaign_id = ${id}::uuid
                   AND m.recipient = ANY(${numbers}::text[])`.execute(server.ctx.db);
      server.ctx.events.publish('messages.queued', {});
    };
    await moveInto(LA);
    rows = await waitFor(
      () => campaignMessages(id),
      (r) => statusOf(r, LA).every((s) => s === 'delivered'),
    );
    expect(statusOf(rows, LONDON)).toEqual(['queued', 'queued']);
    await moveInto(LONDON);
    await waitFor(
      () => campaignMessages(id),
      (r) => r.every((x) => x.status === 'delivered'),
    );
    await waitFor(
      async () => (await c.get(`/api/campaigns/${id}`)).body.status as string,
      (s) => s === 'completed',
    );

    // Charged once: one debit of the campaign, no refund, no second debit; the ledger adds up.
    const entries = await server.ctx.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount_minor'])
      .where('account_id', '=', user.accountId)
      .where('kind', 'not in', ['top_up', 'trial_credit'])
      .execute();
    expect(entries.map((e) => [e.kind, Number(e.amount_minor)])).toEqual([['sms_debit', -cost]]);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(before - cost);
    await expectInvariants(server, user.accountId);
  });

  it("a personalised preview shows each row's local send time", async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const form = new FormData();
    form.append(
      'file',
      new Blob([`Phone,Name\n${NY[0]},Ann\n${LA[0]},Bob\n`], { type: 'text/csv' }),
      'p.csv',
    );
    const up = await c.request('POST', '/api/campaigns/uploads', undefined, { raw: form });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const sendWindow = windowOpenInNewYork();
    const est = await c.post('/api/campaigns/estimate', {
      kind: 'personalised',
      uploadId: up.body.uploadId,
      phoneColumn: 'Phone',
      text: 'Hi {{Name}}',
      sendWindow,
    });
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    const rows = est.body.preview as {
      recipient: string;
      text: string;
      timeZone: string;
      sendsAtLocal: string;
    }[];
    const ny = rows.find((r) => r.recipient === NY[0])!;
    const la = rows.find((r) => r.recipient === LA[0])!;
    expect(ny).toMatchObject({ text: 'Hi Ann', timeZone: 'America/New_York' });
    // Open now in New York: sent at once, in its current local hour.
    const late = (Number(ny.sendsAtLocal.slice(11, 13)) - Number(sendWindow.start.slice(0, 2)) + 24) % 24;
    expect(late).toBeLessThanOrEqual(1);
    expect(la).toMatchObject({ text: 'Hi Bob', timeZone: 'America/Los_Angeles' });
    expect(la.sendsAtLocal.slice(11)).toBe(sendWindow.start);
  });

  it("held messages keep the account's messages-per-second pace at their window's opening", async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    await sql`UPDATE accounts SET max_per_second = 2 WHERE id = ${user.accountId}::uuid`.execute(
      server.ctx.db,
    );
    const numbers = ['+13105550201', '+13105550202', '+13105550203'];
    const res = await c.post('/api/campaigns', {
      numbers: numbers.join('\n'),
      text: 'Paced',
      sendWindow: windowOpenInNewYork(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const rows = await waitFor(
      () => campaignMessages(res.body.campaign.id as string),
      (r) => r.length === 3,
    );
    const due = rows.map((r) => r.next_attempt_at!.getTime()).sort((a, b) => a - b);
    expect(due[0]).toBeGreaterThan(Date.now());
    // 2 a second: 500 ms apart after the opening, as they would have been sent now.
    expect(due[1]! - due[0]!).toBeGreaterThanOrEqual(490);
    expect(due[2]! - due[1]!).toBeGreaterThanOrEqual(490);
  });

  it('a pause and resume keeps a held message waiting for its window', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const sendWindow = windowOpenInNewYork();
    const res = await c.post('/api/campaigns', { numbers: LA.join('\n'), text: 'Later', sendWindow });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.campaign.id as string;
    await waitFor(
      () => campaignMessages(id),
      (r) => r.length === 2,
    );
    expect((await c.post(`/api/campaigns/${id}/pause`, {})).status).toBe(200);
    expect((await c.post(`/api/campaigns/${id}/resume`, {})).status).toBe(200);
    const opens = nextOpen(sendWindow, 'America/Los_Angeles', new Date());
    const due = await server.ctx.db
      .selectFrom('send_queue')
      .select('due_at')
      .where('campaign_id', '=', id)
      .execute();
    expect(due).toHaveLength(2);
    for (const d of due)
      expect(Math.abs(new Date(d.due_at).getTime() - opens.getTime())).toBeLessThan(60_000);
    expect((await campaignMessages(id)).map((m) => m.status)).toEqual(['queued', 'queued']);
  });

  it("the account's default window: campaigns without their own take it; null is none; the campaign's zone is the fallback", async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const def: SendWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '20:00', overnight: false };
    const put = await c.request('PUT', '/api/settings/send-window', { window: def, applyToSingle: false });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ window: def, applyToSingle: false });
    expect((await c.get('/api/settings/send-window')).body.window).toEqual(def);

    const est = await c.post('/api/campaigns/estimate', {
      numbers: NY[0],
      text: 'x',
      timezone: 'Asia/Kolkata',
    });
    expect(est.body.sendWindows).toMatchObject({
      source: 'account',
      window: def,
      fallbackZone: 'Asia/Kolkata',
    });
    const none = await c.post('/api/campaigns/estimate', { numbers: NY[0], text: 'x', sendWindow: null });
    expect(none.body.sendWindows).toBeNull();

    const taken = await c.post('/api/campaigns', {
      numbers: NY[0],
      text: 'x',
      scheduleAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(202);
    expect(taken.body.campaign.sendWindow).toEqual(def);
    const own = await c.post('/api/campaigns', {
      numbers: NY[0],
      text: 'x',
      sendWindow: null,
      scheduleAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(own.body.campaign.sendWindow).toBeNull();
  });

  it('refuses a bad window with its message (400), at the account and the campaign', async () => {
    const c = server.client();
    await c.register();
    const bad = await c.request('PUT', '/api/settings/send-window', {
      window: { days: [], start: '20:00', end: '09:00' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Pick at least one day');
    expect(JSON.stringify(bad.body)).toContain('The window must end after it starts');
    const est = await c.post('/api/campaigns/estimate', {
      numbers: NY[0],
      text: 'x',
      sendWindow: { days: [1], start: '09:00', end: '09:00' },
    });
    expect(est.status).toBe(400);
    expect(JSON.stringify(est.body)).toContain('another time than it starts');
  });

  it('single sends wait for the window only when the account opted them in', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    // Open in Los Angeles now, closed in New York (3 hours ahead).
    const window = windowOpenInNewYork('America/Los_Angeles');
    const put = await c.request('PUT', '/api/settings/send-window', { window, applyToSingle: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const before = (await c.get('/api/balance')).body.balanceMinor as number;
    const sent = await c.post('/api/sms/single', { recipients: [NY[0], LA[0]], text: 'In my hours' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(before - sent.body.balanceMinor).toBe(sent.body.totalPriceMinor);
    const rows = async () =>
      server.ctx.db
        .selectFrom('messages')
        .select(['recipient', 'status', 'next_attempt_at', 'validity_until'])
        .where('account_id', '=', user.accountId)
        .where('campaign_id', 'is', null)
        .execute();
    await waitFor(rows, (r) => statusOf(r, [LA[0]!])[0] === 'delivered');
    const ny = (await rows()).find((r) => r.recipient === NY[0])!;
    expect(ny.status).toBe('queued');
    const opens = nextOpen(window, 'America/New_York', new Date());
    expect(Math.abs(ny.next_attempt_at!.getTime() - opens.getTime())).toBeLessThan(60_000);
    expect(ny.validity_until.getTime()).toBeGreaterThan(opens.getTime());

    // Not opted in: the same send goes at once.
    await c.request('PUT', '/api/settings/send-window', { window, applyToSingle: false });
    const now = await c.post('/api/sms/single', { recipients: [NY[1]], text: 'Any hour' });
    expect(now.status).toBe(202);
    await waitFor(rows, (r) => statusOf(r, [NY[1]!])[0] === 'delivered');
    expect((await rows()).find((r) => r.recipient === NY[0])!.status).toBe('queued');
  });

  it('/v1/campaigns takes a sendWindow (and refuses a bad one with its message)', async () => {
    const c = server.client();
    await c.register();
    const key = await c.post('/api/api-keys', { name: 'Backend', scopes: ['campaigns:write'] });
    expect(key.status).toBe(201);
    const v1 = async (body: unknown) => {
      const res = await fetch(`${server.url}/v1/campaigns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.body.secret as string}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const sendWindow: SendWindow = { days: [6, 7], start: '22:00', end: '06:00', overnight: true };
    const created = await v1({
      to: [NY[0]],
      text: 'Weekend nights',
      sendWindow,
      scheduleAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = (created.body.campaign as { id: string }).id;
    const row = await server.ctx.db
      .selectFrom('bulk_campaigns')
      .select('send_window')
      .where('campaign_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.send_window).toEqual(sendWindow);
    const bad = await v1({ to: [NY[0]], text: 'x', sendWindow: { days: [], start: '09:00', end: '20:00' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Pick at least one day');
  });

  it('another account and roles without the permission cannot read or change the default', async () => {
    const owner = server.client();
    const other = server.client();
    await owner.register();
    await other.register();
    const def: SendWindow = { days: [6, 7], start: '10:00', end: '18:00', overnight: false };
    expect((await owner.request('PUT', '/api/settings/send-window', { window: def })).status).toBe(200);
    // The other account sees and changes only its own.
    expect((await other.get('/api/settings/send-window')).body.window).toBeNull();
    expect((await other.request('PUT', '/api/settings/send-window', { window: null })).status).toBe(200);
    expect((await owner.get('/api/settings/send-window')).body.window).toEqual(def);

    const analyst = (await joinAs(server, owner, 'analyst')).client;
    expect((await analyst.get('/api/settings/send-window')).status).toBe(403);
    const billing = (await joinAs(server, owner, 'billing')).client;
    expect((await billing.request('PUT', '/api/settings/send-window', { window: null })).status).toBe(403);
    const sender = (await joinAs(server, owner, 'sender')).client;
    expect((await sender.get('/api/settings/send-window')).body.window).toEqual(def);
    expect((await sender.request('PUT', '/api/settings/send-window', { window: null })).status).toBe(403);
    const developer = (await joinAs(server, owner, 'developer')).client;
    expect((await developer.request('PUT', '/api/settings/send-window', { window: null })).status).toBe(403);
    const admin = (await joinAs(server, owner, 'admin')).client;
    expect((await admin.request('PUT', '/api/settings/send-window', { window: null })).status).toBe(200);
    expect((await owner.get('/api/settings/send-window')).body.window).toBeNull();
  });
});
