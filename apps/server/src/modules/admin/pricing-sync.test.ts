import { ADMIN_API } from '@wren/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { until } from '../../realtime/test-client';

/**
 * An operator's price change takes effect at once: on the node that made it before the response,
 * and on another node (same database) as soon as PostgreSQL delivers the NOTIFY, not after the
 * pricing cache's 60 s.
 */
let a: TestServer;
let b: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  a = await startServer();
  b = await startServer({}, { databaseUrl: a.databaseUrl });
  admin = a.client();
  const reg = await admin.register();
  await a.ctx.services.users.promote(reg.user.username);
  const login = await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password });
  admin.useSession(login.body);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** A user of a fresh account, signed in on both nodes (the same session works on either). */
async function customer() {
  const onA = a.client();
  const { user, password } = await onA.register();
  const onB = b.client();
  const login = await onB.post('/api/auth/login', { username: user.username, password });
  expect(login.status).toBe(200);
  onB.useSession(login.body);
  return { onA, onB, accountId: user.accountId };
}

const send = async (c: ApiClient, to: string) => {
  const res = await c.post('/api/sms/single', { recipients: [to], text: 'Price check' });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.totalPriceMinor as number;
};

const usPrice = async (c: ApiClient) =>
  ((await c.get('/api/pricing')).body.prices as { prefix: string; priceMinor: number }[]).find(
    (p) => p.prefix === '+1',
  )?.priceMinor;

describe('rate plan changes', () => {
  it('an assignment and a price change are used by the next send on both nodes', async () => {
    const cust = await customer();
    // Both nodes have the default plan cached for the account (US: 1).
    expect(await send(cust.onA, '+14155550170')).toBe(1);
    expect(await send(cust.onB, '+14155550171')).toBe(1);

    const plan = await admin.post(ADMIN_API.ratePlans, { name: 'Premium', currency: 'USD' });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const planId = plan.body.id as string;
    const prices = (usd: number) => ({
      prices: [
        { prefix: '', priceMinor: 9 },
        { prefix: '+1', priceMinor: usd },
      ],
    });
    expect(
      (await admin.request('PUT', ADMIN_API.ratePlanPrices.replace(':id', planId), prices(3))).status,
    ).toBe(200);
    const assigned = await admin.request('PUT', ADMIN_API.accountRatePlan.replace(':id', cust.accountId), {
      ratePlanId: planId,
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);

    // The node that made the change: at once.
    expect(await send(cust.onA, '+14155550172')).toBe(3);
    // The other node: once the notification arrives (well inside the old 60 s cache).
    await until(async () => (await usPrice(cust.onB)) === 3, 10_000, 'node B sees the assigned plan');
    expect(await send(cust.onB, '+14155550173')).toBe(3);

    // A price change of the assigned plan.
    expect(
      (await admin.request('PUT', ADMIN_API.ratePlanPrices.replace(':id', planId), prices(7))).status,
    ).toBe(200);
    expect(await send(cust.onA, '+14155550174')).toBe(7);
    await until(async () => (await usPrice(cust.onB)) === 7, 10_000, 'node B sees the new price');
    expect(await send(cust.onB, '+14155550175')).toBe(7);
  });

  it('a missed notification (listener down) is made up for when it reconnects', async () => {
    const cust = await customer();
    expect(await send(cust.onB, '+14155550180')).toBe(1);
    // Drop both nodes' listener connections from the server side (once both are listening: a test
    // that restarts the shared PostgreSQL may have dropped them a moment ago).
    const listeners = sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN %wren_pricing_changed%'`;
    await until(async () => (await listeners.execute(a.ctx.db)).rows.length === 2, 15_000, 'two listeners');
    const killed = await sql<{ n: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN %wren_pricing_changed%'`.execute(a.ctx.db);
    expect(killed.rows[0]!.n).toBeGreaterThanOrEqual(1);
    const plan = await admin.post(ADMIN_API.ratePlans, { name: 'Reconnect', currency: 'USD' });
    await admin.request('PUT', ADMIN_API.ratePlanPrices.replace(':id', plan.body.id), {
      prices: [{ prefix: '+1', priceMinor: 5 }],
    });
    await admin.request('PUT', ADMIN_API.accountRatePlan.replace(':id', cust.accountId), {
      ratePlanId: plan.body.id,
    });
    await until(
      async () => (await usPrice(cust.onB)) === 5,
      15_000,
      'node B sees the plan after reconnecting',
    );
    expect(await send(cust.onB, '+14155550181')).toBe(5);
  });
});
