import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, importFile, snapshot, upload } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('groups, contacts and imports: account isolation', () => {
  it('another account gets 404 on every endpoint and changes nothing', async () => {
    const a = server.client();
    const { user: ua } = await a.register();
    const g = await createGroup(a, 'Private');
    const contact = (
      await a.post(`/api/groups/${g.id}/contacts`, {
        phone: '+14155550100',
        name: 'Alice',
        fields: { k: 'v' },
      })
    ).body;
    const done = await importFile(a, g.id, 'a.csv', 'phone,name\n+14155550101,Bob\n12,Bad\n');
    const pending = (await upload(a, g.id, 'b.csv', 'phone\n+14155550102\n')).body;
    const before = await snapshot(server.ctx.db, ua.accountId);

    const b = server.client();
    const { user: ub } = await b.register();
    const own = await createGroup(b, 'Mine');
    const G = `/api/groups/${g.id}`;
    const C = `${G}/contacts/${contact.id}`;
    const attempts: [string, () => Promise<{ status: number }>][] = [
      ['get group', () => b.get(G)],
      ['rename group', () => b.patch(G, { name: 'Taken over' })],
      ['delete group', () => b.delete(G)],
      ['list contacts', () => b.get(`${G}/contacts`)],
      ['search contacts', () => b.get(`${G}/contacts?q=Alice`)],
      ['add contact', () => b.post(`${G}/contacts`, { phone: '+14155550199' })],
      ['get contact', () => b.get(C)],
      ['edit contact', () => b.patch(C, { name: 'Mallory' })],
      ['delete contact', () => b.delete(C)],
      ['bulk delete', () => b.post(`${G}/contacts/bulk-delete`, { ids: [contact.id] })],
      ['export', () => b.get(`${G}/contacts/export`)],
      ['upload', () => upload(b, g.id, 'x.csv', 'phone\n+14155550103\n')],
      ['import status', () => b.get(`${G}/imports/${done.upload.importId}`)],
      ['import report', () => b.get(`${G}/imports/${done.upload.importId}/report`)],
      ['commit', () => b.post(`${G}/imports/${pending.importId}/commit`)],
      // Through B's own group, with A's ids.
      ['contact via own group', () => b.get(`/api/groups/${own.id}/contacts/${contact.id}`)],
      ['edit via own group', () => b.patch(`/api/groups/${own.id}/contacts/${contact.id}`, { name: 'M' })],
      ['delete via own group', () => b.delete(`/api/groups/${own.id}/contacts/${contact.id}`)],
      ['commit via own group', () => b.post(`/api/groups/${own.id}/imports/${pending.importId}/commit`)],
      ['status via own group', () => b.get(`/api/groups/${own.id}/imports/${done.upload.importId}`)],
      ['report via own group', () => b.get(`/api/groups/${own.id}/imports/${done.upload.importId}/report`)],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      expect(res.status, name).toBe(404);
    }
    const viaOwn = await b.post(`/api/groups/${own.id}/contacts/bulk-delete`, { ids: [contact.id] });
    expect(viaOwn.body).toEqual({ deleted: 0 });
    expect((await b.get('/api/groups')).body.items.map((x: { id: string }) => x.id)).toEqual([own.id]);
    // The same group name is free in another account.
    expect((await b.post('/api/groups', { name: 'Private' })).status).toBe(201);

    expect(await snapshot(server.ctx.db, ua.accountId)).toEqual(before);
    expect((await snapshot(server.ctx.db, ub.accountId)).contacts).toEqual([]);
  });
});
