import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, snapshot, ukMobiles, upload, waitForImport } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('interrupted imports', () => {
  it('undoes an import stopped mid-way; committing again imports it once', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const csv = `phone\n${ukMobiles(20_000, 200_000).join('\n')}\n`;
    const up = await upload(c, g.id, 'stop.csv', csv);
    const importId = up.body.importId;
    expect((await c.post(`/api/groups/${g.id}/imports/${importId}/commit`)).status).toBe(202);
    for (;;) {
      const s = (await c.get(`/api/groups/${g.id}/imports/${importId}`)).body;
      if (s.processed > 0 || s.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await server.ctx.services.contactImports.stop();
    const stopped = (await c.get(`/api/groups/${g.id}/imports/${importId}`)).body;
    expect(stopped).toMatchObject({
      status: 'failed',
      error: 'The import was interrupted and undone; commit it again to retry',
      inserted: 0,
    });
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(0);
    expect((await snapshot(server.ctx.db, user.accountId)).contacts).toEqual([]);

    expect((await c.post(`/api/groups/${g.id}/imports/${importId}/commit`)).status).toBe(202);
    const again = await waitForImport(c, g.id, importId);
    expect(again).toMatchObject({ status: 'completed', processed: 20_000, inserted: 20_000, duplicates: 0 });
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(20_000);
  });

  it('treats a running import with an old heartbeat (a crashed server) as failed and lets it be retried', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const up = await upload(c, g.id, 'crash.csv', 'phone\n+14155550100\n+14155550101\n');
    const importId = up.body.importId;
    // As left by a server that died after writing one batch.
    await c.post(`/api/groups/${g.id}/contacts`, { phone: '+14155550100' });
    await server.ctx.db
      .updateTable('contacts')
      .set({ import_id: importId })
      .where('group_id', '=', g.id)
      .execute();
    await server.ctx.db
      .updateTable('contact_imports')
      .set({ status: 'running', processed: 1, inserted: 1, heartbeat_at: new Date(Date.now() - 600_000) })
      .where('id', '=', importId)
      .execute();
    const seen = (await c.get(`/api/groups/${g.id}/imports/${importId}`)).body;
    expect(seen).toMatchObject({ status: 'failed', error: expect.stringMatching(/interrupted/) });
    expect((await c.post(`/api/groups/${g.id}/imports/${importId}/commit`)).status).toBe(202);
    expect(await waitForImport(c, g.id, importId)).toMatchObject({
      status: 'completed',
      inserted: 2,
      duplicates: 0,
    });
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(2);
  });
});
