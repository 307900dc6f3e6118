import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, snapshot } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('contact groups', () => {
  it('creates, lists with contact counts, renames and deletes (with its contacts)', async () => {
    const c = server.client();
    const { user } = await c.register();
    const seen: (string | undefined)[] = [];
    const off = server.ctx.events.subscribe('group.changed', (e) => {
      if (e.accountId === user.accountId) seen.push(e.groupId);
    });

    const res = await c.post('/api/groups', { name: '  VIP customers ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), name: 'VIP customers', contactCount: 0 });
    const vip = res.body;
    const other = await createGroup(c, 'all staff');
    for (const phone of ['+14155550101', '+14155550102']) {
      expect((await c.post(`/api/groups/${vip.id}/contacts`, { phone })).status).toBe(201);
    }
    const list = await c.get('/api/groups');
    expect(
      list.body.items.map((g: { name: string; contactCount: number }) => [g.name, g.contactCount]),
    ).toEqual([
      ['all staff', 0],
      ['VIP customers', 2],
    ]);
    expect((await c.get(`/api/groups/${vip.id}`)).body.contactCount).toBe(2);

    const renamed = await c.patch(`/api/groups/${vip.id}`, { name: 'Gold' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: vip.id, name: 'Gold', contactCount: 2 });

    expect((await c.delete(`/api/groups/${vip.id}`)).status).toBe(204);
    expect((await c.get(`/api/groups/${vip.id}`)).status).toBe(404);
    expect((await c.delete(`/api/groups/${vip.id}`)).status).toBe(404);
    const left = await snapshot(server.ctx.db, user.accountId);
    expect(left.groups.map((g) => g.id)).toEqual([other.id]);
    expect(left.contacts).toEqual([]);
    off();
    expect(seen).toEqual([vip.id, other.id, vip.id, vip.id, vip.id, vip.id]);
  });

  it('refuses a duplicate name in any case (create and rename) with a 409, changing nothing', async () => {
    const c = server.client();
    const { user } = await c.register();
    await createGroup(c, 'Customers');
    const b = await createGroup(c, 'Suppliers');
    const before = await snapshot(server.ctx.db, user.accountId);
    const dup = await c.post('/api/groups', { name: 'CUSTOMERS' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 'CONFLICT', message: 'You already have a group named "CUSTOMERS"' });
    expect(dup.headers.get('application-error')).toBe(dup.body.message);
    const rename = await c.patch(`/api/groups/${b.id}`, { name: 'customers' });
    expect(rename.status).toBe(409);
    expect(await snapshot(server.ctx.db, user.accountId)).toEqual(before);
    // Renaming to its own name in another case is fine.
    expect((await c.patch(`/api/groups/${b.id}`, { name: 'SUPPLIERS' })).status).toBe(200);
  });

  it('validates the name', async () => {
    const c = server.client();
    await c.register();
    const res = await c.post('/api/groups', { name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: ['Group name is required'] });
    expect((await c.post('/api/groups', { name: 'x'.repeat(101) })).body.errors.name).toEqual([
      'Group name must be at most 100 characters',
    ]);
  });

  it('an id that cannot be a group is an unknown group: 404, as for a group of another account', async () => {
    const c = server.client();
    await c.register();
    for (const res of [
      await c.get('/api/groups/123'),
      await c.patch('/api/groups/not-a-uuid', { name: 'X' }),
      await c.delete('/api/groups/123'),
      await c.get('/api/groups/00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(res.headers.get('application-error')).toBe('Group not found');
    }
  });
});
