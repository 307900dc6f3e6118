import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants } from '../../../test/messaging';
import { transact } from '../../platform/db';
import { createGroup } from '../contacts/test-fixtures';
import { joinAs } from '../members/test-fixtures';
import { campaignsOf } from './campaigns.routes';

/**
 * Issue 47 item 2: a campaign to contact groups fills {{name}}, {{phone}} and each custom field
 * from the contact, per recipient (its own segments and price), through the HTTP API and PostgreSQL.
 */
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

async function addContact(c: ApiClient, groupId: string, body: object) {
  const res = await c.post(`/api/groups/${groupId}/contacts`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** A group of three US contacts: Ann of Acme, Bob with no company, and Cy whose company's 150-character name takes a second segment. */
async function customers(c: ApiClient) {
  const g = await createGroup(c);
  await addContact(c, g.id, { phone: '+14155550101', name: 'Ann', fields: { company: 'Acme' } });
  await addContact(c, g.id, { phone: '+14155550102', name: 'Bob', fields: { city: 'Leeds' } });
  await addContact(c, g.id, { phone: '+14155550103', name: 'Cy', fields: { company: 'I'.repeat(150) } });
  return g;
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

describe('contact fields in bulk campaigns to groups', () => {
  it('fills {{name}}, {{phone}} and custom fields per contact; sizes and prices each; counts and sends empty what a contact lacks', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const g = await customers(c);
    const source = {
      groupIds: [g.id],
      // A pasted number has its phone only: its {{name}} and {{company}} are missing too.
      numbers: '+14155550104',
      text: 'Hi {{name}} of {{ company }}, we call {{phone}}',
    };
    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    // Ann, Bob and the pasted number 1 segment each; Cy's 150-character company makes 2 (US: 1 a segment).
    expect(est.body).toMatchObject({ recipients: 4, segments: 2, costMinor: 5, encoding: 'GSM-7' });
    expect(est.body.missingValues).toEqual([
      { placeholder: 'company', recipients: 2 },
      { placeholder: 'name', recipients: 1 },
    ]);
    const byPhone = Object.fromEntries(
      (est.body.preview as { recipient: string; text: string; segments: number; missing?: string[] }[]).map(
        (p) => [p.recipient, p],
      ),
    );
    expect(byPhone['+14155550101']).toMatchObject({
      text: 'Hi Ann of Acme, we call +14155550101',
      segments: 1,
      costMinor: 1,
    });
    expect(byPhone['+14155550102']).toMatchObject({
      text: 'Hi Bob of , we call +14155550102',
      missing: ['company'],
    });
    expect(byPhone['+14155550103']).toMatchObject({ segments: 2, costMinor: 2 });
    expect(byPhone['+14155550104']).toMatchObject({
      text: 'Hi  of , we call +14155550104',
      missing: ['name', 'company'],
    });

    const res = await c.post('/api/campaigns', { ...source, name: 'Fields' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.campaign).toMatchObject({ kind: 'bulk', recipients: 4, costMinor: 5 });
    expect(res.body.missingValues).toEqual(est.body.missingValues);
    const id = res.body.campaign.id as string;
    await waitFor(
      async () => {
        await campaignsOf(server.ctx).tick();
        return (await c.get(`/api/campaigns/${id}`)).body;
      },
      (b) => b.status === 'completed' && b.delivered === 4,
    );
    const messages = await server.ctx.db
      .selectFrom('messages')
      .select(['recipient', 'body', 'segments', 'price_minor'])
      .where('campaign_id', '=', id)
      .orderBy('recipient')
      .execute();
    expect(messages.map((m) => [m.recipient, m.body, m.segments, m.price_minor])).toEqual([
      ['+14155550101', 'Hi Ann of Acme, we call +14155550101', 1, 1],
      ['+14155550102', 'Hi Bob of , we call +14155550102', 1, 1],
      ['+14155550103', `Hi Cy of ${'I'.repeat(150)}, we call +14155550103`, 2, 2],
      ['+14155550104', 'Hi  of , we call +14155550104', 1, 1],
    ]);
    // What the SMSC was sent is the filled text, never the placeholder.
    const submitted = [...server.worker!.simulator!.messages.values()].map((m) => m.text);
    expect(submitted).toContain('Hi Ann of Acme, we call +14155550101');
    expect(submitted.some((t) => t.includes('{{'))).toBe(false);
    await expectInvariants(server, user.accountId);
  });

  it('matches fields case-insensitively and refuses a placeholder no contact field has with a 400 naming the fields', async () => {
    const c = server.client();
    await c.register();
    const g = await customers(c);
    const ok = await c.post('/api/campaigns/estimate', { groupIds: [g.id], text: 'Hi {{Name}} in {{CITY}}' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.missingValues).toEqual([{ placeholder: 'CITY', recipients: 2 }]);
    const bad = await c.post('/api/campaigns/estimate', {
      groupIds: [g.id],
      text: 'Hi {{first}}, {{company}}',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.text[0]).toBe(
      "No contact field matches {{first}}; the groups' contacts have {{name}}, {{phone}}, {{city}}, {{company}}",
    );
    const sent = await c.post('/api/campaigns', { groupIds: [g.id], text: 'Hi {{first}}' });
    expect(sent.status).toBe(400);
    // Pasted numbers alone know their phone: {{name}} is sent empty, anything else is refused.
    const pasted = await c.post('/api/campaigns/estimate', { numbers: '+14155550109', text: 'Hi {{city}}' });
    expect(pasted.status).toBe(400);
    expect(pasted.body.errors.text[0]).toMatch(/No contact field matches \{\{city\}\}/);
    // A text without placeholders is sent as it is: one text, no per-recipient values.
    const plain = await c.post('/api/campaigns/estimate', { groupIds: [g.id], text: 'Hello all' });
    expect(plain.body).toMatchObject({ recipients: 3, preview: [], missingValues: [] });
  });
});

describe('personalised campaigns from contact groups', () => {
  it('takes groups as the source: columns are name, phone and the custom fields; not a file and groups at once', async () => {
    const c = server.client();
    const { user } = await c.register();
    await topUp(user.accountId, 10_000);
    const g = await customers(c);
    const source = { kind: 'personalised', groupIds: [g.id], text: 'Dear {{name}}, {{company}} order' };
    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    expect(est.body).toMatchObject({ recipients: 3, invalid: 0, costMinor: 4, segments: 2 });
    expect(est.body.missingValues).toEqual([{ placeholder: 'company', recipients: 1 }]);
    expect(est.body.preview.map((p: { text: string }) => p.text)).toContain('Dear Ann, Acme order');

    const res = await c.post('/api/campaigns', {
      ...source,
      scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.campaign).toMatchObject({ kind: 'personalised', recipients: 3, costMinor: 4 });
    const stored = await server.ctx.db
      .selectFrom('bulk_campaigns')
      .select(['columns', 'body'])
      .where('campaign_id', '=', res.body.campaign.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ columns: ['name', 'company'], body: source.text });

    const form = new FormData();
    form.append('file', new Blob(['Phone,name\n+14155550120,Zed\n'], { type: 'text/csv' }), 'p.csv');
    const up = await c.request('POST', '/api/campaigns/uploads', undefined, { raw: form });
    expect(up.status).toBe(201);
    const both = await c.post('/api/campaigns/estimate', { ...source, uploadId: up.body.uploadId });
    expect(both.status).toBe(400);
    expect(both.body.errors.groupIds[0]).toBe('Send to a file or to contact groups, not both');
    const neither = await c.post('/api/campaigns/estimate', { kind: 'personalised', text: 'Hi {{name}}' });
    expect(neither.status).toBe(400);
    expect(neither.body.errors.uploadId[0]).toMatch(/or choose contact groups/);
    await expectInvariants(server, user.accountId);
  });
});

describe('who may use a group', () => {
  it("refuses another account's group (404) and a role without send permission (403), storing nothing", async () => {
    const owner = server.client();
    await owner.register();
    const g = await customers(owner);
    const other = server.client();
    const { user } = await other.register();
    await topUp(user.accountId, 10_000);
    for (const body of [
      { groupIds: [g.id], text: 'Hi {{name}}' },
      { kind: 'personalised', groupIds: [g.id], text: 'Hi {{name}}' },
      { groupIds: [g.id], text: 'Plain' },
    ]) {
      for (const path of [
        '/api/campaigns/estimate',
        '/api/campaigns',
        '/api/campaigns/estimate/issues.csv',
      ]) {
        const r = await other.post(path, body);
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(404);
        expect(JSON.stringify(r.body)).not.toContain('Ann');
      }
    }
    // The group's field keys (the composer's insert buttons): the owner's, not another account's.
    const fields = await owner.get(`/api/groups/${g.id}/fields`);
    expect(fields.status).toBe(200);
    expect(fields.body).toEqual({ fields: ['city', 'company'] });
    expect((await other.get(`/api/groups/${g.id}/fields`)).status).toBe(404);
    const analyst = (await joinAs(server, owner, 'analyst')).client;
    const refused = await analyst.post('/api/campaigns', { groupIds: [g.id], text: 'Hi {{name}}' });
    expect(refused.status).toBe(403);
    const estimate = await analyst.post('/api/campaigns/estimate', { groupIds: [g.id], text: 'Hi {{name}}' });
    expect(estimate.status).toBe(403);
    const campaigns = await server.ctx.db
      .selectFrom('campaigns')
      .select('id')
      .where('account_id', 'in', [user.accountId])
      .execute();
    expect(campaigns).toEqual([]);
  });
});
