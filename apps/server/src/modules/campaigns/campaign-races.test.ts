import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants } from '../../../test/messaging';
import { campaignsOf } from './campaigns.routes';

// Campaigns requested at the same time: more than the pool's connections at once, one upload used by
// several requests, one campaign's failures resent by several clicks.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
  server.worker!.simulator!.setOptions({
    statByDestination: (dest: string) => (dest.endsWith('9999') ? 'UNDELIV' : undefined),
  });
});
afterAll(async () => {
  await server?.close();
});

const numbers = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `+1415558${String(from + i).padStart(4, '0')}`).join('\n');

const campaignsOfAccount = (accountId: string) =>
  server.ctx.db.selectFrom('campaigns').select('id').where('account_id', '=', accountId).execute();

describe('campaigns requested at the same time', () => {
  it('more parallel campaigns than pooled connections all answer (their scan uses its own transaction)', async () => {
    const c = server.client();
    const { user } = await c.register();
    // 16 > the pool's 10 connections: each accept holds one for its transaction; before, its
    // suppression and price lookups waited for a second one, and 12 at once waited for ever.
    const started = Date.now();
    const all = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        c.post('/api/campaigns', { numbers: numbers(i * 20, 20), text: `drain ${i}` }),
      ),
    );
    expect(all.map((r) => r.status)).toEqual(Array(16).fill(202));
    // Well under the pool's 30 s wait: nothing waited for a connection it could never get.
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await campaignsOfAccount(user.accountId)).toHaveLength(16);
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(200);
    await expectInvariants(server, user.accountId);
  });

  it('one upload makes one campaign, however many requests use it at once', async () => {
    const c = server.client();
    const { user } = await c.register();
    const form = new FormData();
    form.append('file', new Blob([`phone\n${numbers(1000, 3)}\n`], { type: 'text/csv' }), 'race.csv');
    const upload = await c.request('POST', '/api/campaigns/uploads', undefined, { raw: form });
    expect(upload.status, JSON.stringify(upload.body)).toBeLessThan(300);
    const before = (await c.get('/api/balance')).body.balanceMinor as number;
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        c.post('/api/campaigns', { uploadId: upload.body.uploadId, text: 'race upload' }),
      ),
    );
    expect(runs.map((r) => r.status).sort(), JSON.stringify(runs.map((r) => r.body))).toEqual([
      202, 400, 400, 400,
    ]);
    for (const r of runs.filter((x) => x.status === 400)) {
      expect(r.body.errors.uploadId[0]).toMatch(/upload it again/);
    }
    expect(await campaignsOfAccount(user.accountId)).toHaveLength(1);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(before - 3);
    await expectInvariants(server, user.accountId);
  });

  it("a campaign's failures are resent once, however often resend is clicked", async () => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/campaigns', {
      numbers: '+14155559999\n+14155550001\n+14155550002',
      text: 'Resend race',
    });
    expect(res.status).toBe(202);
    const id = res.body.campaign.id as string;
    const deadline = Date.now() + 20_000;
    for (;;) {
      await campaignsOf(server.ctx).tick();
      const b = (await c.get(`/api/campaigns/${id}`)).body;
      if (b.counts.undelivered === 1 && b.delivered === 2) break;
      if (Date.now() > deadline) throw new Error(`not finished: ${JSON.stringify(b.counts)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = (await c.get('/api/balance')).body.balanceMinor as number;
    const clicks = await Promise.all(
      Array.from({ length: 3 }, () => c.post(`/api/campaigns/${id}/resend-failed`)),
    );
    expect(clicks.map((r) => r.status).sort()).toEqual([202, 409, 409]);
    const resent = clicks.find((r) => r.status === 202)!.body.campaign;
    expect(resent).toMatchObject({ recipients: 1, resendOf: id });
    for (const r of clicks.filter((x) => x.status === 409)) {
      expect(r.body.message).toMatch(/already resent as "Resend race|resend from that campaign/);
    }
    const later = await c.post(`/api/campaigns/${id}/resend-failed`);
    expect(later.status).toBe(409);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(before - 1);
    expect(await campaignsOfAccount(user.accountId)).toHaveLength(2);
    await expectInvariants(server, user.accountId);
  });
});
