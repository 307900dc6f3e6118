import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { until } from '../../realtime/test-client';
import { createGroup, snapshot, ukMobiles, upload, waitForImport } from './test-fixtures';

/**
 * Imports are pg-boss jobs with their state in contact_imports. Each test has an `api`-role node
 * that owns the database and works no jobs, and job nodes that join it and come and go.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  // Joining nodes first; the owner (first) drops the database.
  for (const s of servers.splice(0).reverse()) await s.close();
});
const owner = async () => {
  const s = await startServer({ ROLE: 'api' });
  servers.push(s);
  return s;
};
const jobNode = async (of: TestServer) => {
  const s = await startServer({}, { databaseUrl: of.databaseUrl });
  servers.push(s);
  return s;
};
const importRow = (s: TestServer, id: string) =>
  s.ctx.db.selectFrom('contact_imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('durable imports', () => {
  it('an import running on a node that is then closed completes on another node, once', async () => {
    const db = await owner();
    const nodeA = await jobNode(db); // the only node that works jobs: it runs the import
    const c = db.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const up = await upload(c, g.id, 'durable.csv', `phone\n${ukMobiles(20_000, 200_000).join('\n')}\n`);
    const importId = up.body.importId as string;
    expect((await c.post(`/api/groups/${g.id}/imports/${importId}/commit`)).status).toBe(202);
    await until(async () => (await importRow(db, importId)).processed > 0, 30_000, 'a first batch');

    await nodeA.close();
    servers.splice(servers.indexOf(nodeA), 1);
    const handedBack = await importRow(db, importId);
    expect(handedBack).toMatchObject({ status: 'running', runner: null, error: null });
    expect(handedBack.processed).toBeLessThan(20_000);

    await jobNode(db);
    const done = await waitForImport(c, g.id, importId);
    expect(done).toMatchObject({ status: 'completed', processed: 20_000, inserted: 20_000, duplicates: 0 });
    expect((await importRow(db, importId)).attempts).toBeGreaterThanOrEqual(2);
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(20_000);
    expect((await snapshot(db.ctx.db, user.accountId)).contacts).toHaveLength(20_000);
  });

  it('an import whose node died is resumed by a node that starts; one out of attempts fails with a reason', async () => {
    const db = await owner();
    const c = db.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const resumed = (await upload(c, g.id, 'resume.csv', 'phone\n+14155550100\n+14155550101\n')).body
      .importId as string;
    const exhausted = (await upload(c, g.id, 'gone.csv', 'phone\n+14155550102\n+14155550103\n')).body
      .importId as string;
    // As left by a node that died after writing one batch of each: committed, a contact each, a
    // runner that will never report again, and for the second, its last allowed attempt.
    for (const [importId, phone, attempts] of [
      [resumed, '+14155550100', 1],
      [exhausted, '+14155550102', 3],
    ] as const) {
      expect((await c.post(`/api/groups/${g.id}/contacts`, { phone })).status).toBe(201);
      await db.ctx.db
        .updateTable('contacts')
        .set({ import_id: importId })
        .where('group_id', '=', g.id)
        .where('phone', '=', phone)
        .execute();
      await db.ctx.db
        .updateTable('contact_imports')
        .set({
          status: 'running',
          runner: 'job-of-a-dead-node',
          attempts,
          processed: 1,
          inserted: 1,
          started_at: new Date(Date.now() - 700_000),
          heartbeat_at: new Date(Date.now() - 600_000),
        })
        .where('id', '=', importId)
        .execute();
    }
    // Reading it changes nothing: the state is what the table says.
    expect((await c.get(`/api/groups/${g.id}/imports/${resumed}`)).body).toMatchObject({ status: 'running' });

    await jobNode(db); // its recovery sweep runs at start
    expect(await waitForImport(c, g.id, resumed, 20_000)).toMatchObject({
      status: 'completed',
      processed: 2,
      inserted: 2,
      duplicates: 0,
    });
    expect(await waitForImport(c, g.id, exhausted, 20_000)).toMatchObject({
      status: 'failed',
      inserted: 0,
      error: 'The import was interrupted 3 times and undone; commit it again to retry',
    });
    const phones = (await snapshot(db.ctx.db, user.accountId)).contacts.map((x) => x.phone).sort();
    expect(phones).toEqual(['+14155550100', '+14155550101']);
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(2);

    // The failed one can be committed again and then imports once.
    expect((await c.post(`/api/groups/${g.id}/imports/${exhausted}/commit`)).status).toBe(202);
    expect(await waitForImport(c, g.id, exhausted)).toMatchObject({ status: 'completed', inserted: 2 });
    expect((await c.get(`/api/groups/${g.id}`)).body.contactCount).toBe(4);
  });
});
