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

describe('contacts CRUD', () => {
  it('creates with a normalised phone, name and custom fields; edits; deletes', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const res = await c.post(`/api/groups/${g.id}/contacts`, {
      phone: '(415) 555-0123',
      name: ' Ada Lovelace ',
      fields: { city: 'London', plan_2: 'gold' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      groupId: g.id,
      phone: '+14155550123',
      name: 'Ada Lovelace',
      fields: { city: 'London', plan_2: 'gold' },
    });
    const id = res.body.id;
    expect((await c.get(`/api/groups/${g.id}/contacts/${id}`)).body).toEqual(res.body);

    const edited = await c.patch(`/api/groups/${g.id}/contacts/${id}`, {
      phone: '+44 7911 123456',
      fields: { city: 'Paris' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      phone: '+447911123456',
      name: 'Ada Lovelace',
      fields: { city: 'Paris' },
    });

    expect((await c.delete(`/api/groups/${g.id}/contacts/${id}`)).status).toBe(204);
    expect((await c.get(`/api/groups/${g.id}/contacts/${id}`)).status).toBe(404);
    expect((await c.delete(`/api/groups/${g.id}/contacts/${id}`)).status).toBe(404);
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(0);
  });

  it('refuses bad input and duplicates with clear 4xx, changing nothing', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const first = await c.post(`/api/groups/${g.id}/contacts`, { phone: '+14155550123', name: 'A' });
    const second = await c.post(`/api/groups/${g.id}/contacts`, { phone: '+14155550124', name: 'B' });
    const before = await snapshot(server.ctx.db, user.accountId);

    const badPhone = await c.post(`/api/groups/${g.id}/contacts`, { phone: '12' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.errors.phone[0]).toMatch(/valid phone number/);
    const badField = await c.post(`/api/groups/${g.id}/contacts`, {
      phone: '+14155550125',
      fields: { '1st': 'x', name: 'y' },
    });
    expect(badField.status).toBe(400);
    expect(Object.keys(badField.body.errors).sort()).toEqual(['fields.1st', 'fields.name']);
    const dup = await c.post(`/api/groups/${g.id}/contacts`, { phone: '415-555-0123' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('+14155550123 is already in this group');
    const dupEdit = await c.patch(`/api/groups/${g.id}/contacts/${second.body.id}`, {
      phone: '+1 415 555 0123',
    });
    expect(dupEdit.status).toBe(409);
    expect(
      (await c.post(`/api/groups/${crypto.randomUUID()}/contacts`, { phone: '+14155550126' })).status,
    ).toBe(404);
    expect(await snapshot(server.ctx.db, user.accountId)).toEqual(before);
    expect(first.body.id).toBeDefined();
  });

  it('bulk-deletes only the listed contacts of the group and keeps the count right', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const other = await createGroup(c);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await c.post(`/api/groups/${g.id}/contacts`, { phone: `+1415555010${i}` })).body.id);
    }
    const foreign = (await c.post(`/api/groups/${other.id}/contacts`, { phone: '+14155550100' })).body.id;
    const res = await c.post(`/api/groups/${g.id}/contacts/bulk-delete`, {
      ids: [ids[0], ids[1], ids[1], foreign, crypto.randomUUID()],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2 });
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(3);
    expect((await c.get(`/api/groups/${other.id}`)).body.contactCount).toBe(1);
    expect((await c.post(`/api/groups/${g.id}/contacts/bulk-delete`, { ids: [] })).status).toBe(400);
    expect((await c.post(`/api/groups/${g.id}/contacts/bulk-delete`, { ids: ['nope'] })).status).toBe(400);
  });
});

describe('contact search and keyset pagination', () => {
  it('pages newest first and by name with opaque cursors, and searches names and phones', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const names = ['zoe', 'Adam', 'bob', 'Carla', 'dave', 'Eve', 'frank', 'Gina', 'hal', 'Ivy', 'jon', 'Kim'];
    const created: { id: string; name: string; phone: string }[] = [];
    for (const [i, name] of names.entries()) {
      const phone = `+1212200${String(1000 + i * 7)}`;
      created.push((await c.post(`/api/groups/${g.id}/contacts`, { phone, name })).body);
    }
    const all = async (query: string) => {
      const items: { id: string; name: string }[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/api/groups/${g.id}/contacts?limit=5${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await c.get(url);
        expect(res.status).toBe(200);
        items.push(...res.body.items);
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor);
      return { items, pages };
    };
    const newest = await all('');
    expect(newest.pages).toBe(3);
    expect(newest.items.map((i) => i.id)).toEqual([...created].reverse().map((i) => i.id));
    const byName = await all('&sort=name');
    expect(byName.items.map((i) => i.name)).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );

    const search = async (q: string, sort = 'created') =>
      (await c.get(`/api/groups/${g.id}/contacts?sort=${sort}&q=${encodeURIComponent(q)}`)).body.items.map(
        (i: { name: string }) => i.name,
      );
    expect(await search('A', 'name')).toEqual(['Adam', 'Carla', 'dave', 'frank', 'Gina', 'hal']);
    expect(await search('1049')).toEqual(['Gina']);
    expect(await search('(212) 200-1007')).toEqual(['Adam']);
    expect(await search('%')).toEqual([]);
    expect(await search('zzz')).toEqual([]);

    const bad = await c.get(`/api/groups/${g.id}/contacts?cursor=not-a-cursor`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.cursor).toBeDefined();
    const first = await c.get(`/api/groups/${g.id}/contacts?limit=2`);
    const mixed = await c.get(
      `/api/groups/${g.id}/contacts?limit=2&sort=name&cursor=${first.body.nextCursor}`,
    );
    expect(mixed.status).toBe(400);
  });
});
