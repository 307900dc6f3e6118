import type { SmscHandle } from '@wren/smsc-simulator';
import { ROUTES_API } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { topUp, waitForFinal } from '../../../test/messaging';
import { silentLogger } from '../../gateway/smpp-test-kit';
import { startRouteRefresh } from '../../gateway/routing/route-refresh';
import { accountsOnPlans } from './account-plans';
import { loadRouteDefs, routesVersion } from './route-store';
import { carrier, carrierConnection } from './test-carriers';

/**
 * Issue 38 through the real server, PostgreSQL, the worker and two simulated carriers: operators'
 * routes (validation, audit, admin only), the route test, messages sent by their route with the
 * decision in their history and cost on record, failover when a carrier's binds drop, the margin
 * report, and a change applied by another node.
 */
let server: TestServer;
let admin: ApiClient;
let user: ApiClient;
let accountId: string;
let carrierA: SmscHandle;
let carrierB: SmscHandle;
/** Delivers one message in two (those to numbers ending in an odd digit fail). */
let carrierPoor: SmscHandle;

/** The routing decision kept with a message's move to sent, as its history shows it to operators. */
async function decisionOf(messageId: string) {
  const [row] = await routeOf(messageId);
  return row ? `Routed: ${row.reason}` : null;
}

/** A message's routing decision as stored: named by the message, kept once (route_decisions). */
function routeOf(messageId: string) {
  return server.ctx.db
    .selectFrom('messages')
    .innerJoin('route_decisions', 'route_decisions.id', 'messages.route_decision')
    .select([
      'route_decisions.connection',
      'route_decisions.route_name',
      'route_decisions.strategy',
      'route_decisions.cost_micros',
      'route_decisions.reason',
      'messages.segments',
    ])
    .where('messages.id', '=', messageId)
    .execute();
}

async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  carrierA = await carrier();
  carrierB = await carrier();
  carrierPoor = await carrier({ statByDestination: (d) => (Number(d.at(-1)) % 2 ? 'UNDELIV' : 'DELIVRD') });
  server = await startServer(
    {
      SMSC_CONNECTIONS: JSON.stringify([
        carrierConnection('carrier-a', carrierA.port, ['+1']),
        carrierConnection('carrier-b', carrierB.port, []),
        carrierConnection('carrier-poor', carrierPoor.port, ['+999']),
      ]),
      SMSC_RECONNECT_BASE_MS: '50',
      SMSC_RECONNECT_MAX_MS: '200',
      SMSC_ENQUIRE_LINK_SECONDS: '0.5',
    },
    { worker: true },
  );
  admin = server.client();
  const reg = await admin.register();
  await server.ctx.services.users.promote(reg.user.username);
  admin.useSession(
    (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
  );
  user = server.client();
  accountId = (await user.register()).user.accountId;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await carrierA?.close();
  await carrierB?.close();
  await carrierPoor?.close();
});

const ukRoute = {
  name: 'uk',
  prefix: '+44',
  strategy: 'priority',
  entries: [
    { connection: 'carrier-a', cost: '0.0050', priority: 1, weight: 1 },
    { connection: 'carrier-b', cost: '0.0042', priority: 2, weight: 1 },
  ],
  reason: 'UK through carrier A, B as failover',
};

describe('routes: the operator API', () => {
  it('refuses what cannot be a route, with a message per field', async () => {
    const bad = async (over: Record<string, unknown>) => {
      const res = await admin.post(ROUTES_API.list, { ...ukRoute, ...over });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await bad({ prefix: '44' })).toMatch(/Write the prefix as \+ and digits/);
    expect(await bad({ strategy: 'cheapest' })).toMatch(/Choose priority, weighted, least_cost or quality/);
    expect(await bad({ entries: [] })).toMatch(/List at least one connection/);
    expect(await bad({ entries: [{ connection: 'carrier-a', cost: '0.0000001' }] })).toMatch(
      /at most 6 decimals/,
    );
    expect(await bad({ entries: [{ connection: 'carrier-a', cost: '-1' }] })).toMatch(/such as 0.0042/);
    expect(
      await bad({
        entries: [
          { connection: 'carrier-a', cost: '1' },
          { connection: 'carrier-a', cost: '2' },
        ],
      }),
    ).toMatch(/carrier-a is listed twice/);
    const unknown = await admin.post(ROUTES_API.list, {
      ...ukRoute,
      entries: [{ connection: 'carrier-z', cost: '1' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors['entries.0.connection']).toEqual([
      'No SMPP connection is named "carrier-z" (configured: carrier-a, carrier-b, carrier-poor)',
    ]);
    expect(await bad({ accountId: '00000000-0000-4000-8000-000000000000' })).toMatch(
      /No account has that id/,
    );
    expect(await bad({ reason: '' })).toMatch(/reason/i);
    expect((await admin.get(ROUTES_API.list)).body.items).toEqual([]);
  });

  it('creates, lists, changes and removes a route, each audited; a member of an account gets 403', async () => {
    const created = await admin.post(ROUTES_API.list, { ...ukRoute, name: 'temp', prefix: '+49' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'temp',
      prefix: '+49',
      strategy: 'priority',
      qualityFloor: null,
      entries: [
        { connection: 'carrier-a', cost: '0.0050', costMicros: 5000, priority: 1 },
        { connection: 'carrier-b', cost: '0.0042', costMicros: 4200, priority: 2 },
      ],
    });
    const id = created.body.id as string;
    // Same prefix and filters twice: refused, not an arbitrary choice between them.
    const twin = await admin.post(ROUTES_API.list, { ...ukRoute, name: 'twin', prefix: '+49' });
    expect(twin.status).toBe(409);
    const sameName = await admin.post(ROUTES_API.list, { ...ukRoute, name: 'temp', prefix: '+48' });
    expect(sameName.status).toBe(400);
    expect(JSON.stringify(sameName.body)).toMatch(/Another route has that name/);

    const changed = await admin.request('PUT', ROUTES_API.one.replace(':id', id), {
      ...ukRoute,
      name: 'temp',
      prefix: '+49',
      strategy: 'quality',
      qualityFloor: 0.9,
      costCeiling: '0.006',
      reason: 'judge by delivery',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ strategy: 'quality', qualityFloor: 0.9, costCeiling: '0.0060' });
    expect((await admin.get(ROUTES_API.list)).body.items.map((r: { name: string }) => r.name)).toEqual([
      'temp',
    ]);

    // Not an operator: refused, and nothing of the routes is shown.
    for (const res of [
      await user.get(ROUTES_API.list),
      await user.post(ROUTES_API.list, ukRoute),
      await user.request('PUT', ROUTES_API.one.replace(':id', id), ukRoute),
      await user.request('DELETE', ROUTES_API.one.replace(':id', id), { reason: 'mine now' }),
      await user.post(ROUTES_API.test, { to: '+491701234567' }),
      await user.get(`${ROUTES_API.margin}?from=2026-01-01&to=2026-12-31`),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toMatch(/carrier-a|temp/);
    }

    const removed = await admin.request('DELETE', ROUTES_API.one.replace(':id', id), {
      reason: 'not needed',
    });
    expect(removed.status).toBe(204);
    expect(
      (await admin.request('DELETE', ROUTES_API.one.replace(':id', id), { reason: 'again' })).status,
    ).toBe(404);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['kind', 'message'])
      .where('resource_type', '=', 'smsc_route')
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.kind)).toEqual([
      'admin.route_created',
      'admin.route_changed',
      'admin.route_removed',
    ]);
    expect(audit[0]?.message).toBe(
      'Created route temp (+49, priority): carrier-a 0.0050 p1 w1; carrier-b 0.0042 p2 w1: UK through carrier A, B as failover',
    );
  });
});

describe('routes: messages', () => {
  let routeId: string;

  beforeAll(async () => {
    const created = await admin.post(ROUTES_API.list, ukRoute);
    expect(created.status).toBe(201);
    routeId = created.body.id;
    await server.worker!.routes.refresh();
  });

  it('the route test names the connection a number would go through, and why', async () => {
    await until(
      async () => {
        const res = await admin.post(ROUTES_API.test, { to: '+447700900123' });
        return res.body.candidates?.every((c: { usable: boolean }) => c.usable) === true;
      },
      10_000,
      'both carriers reported bound',
    );
    const test = await admin.post(ROUTES_API.test, { to: '+447700900123', accountId });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({
      route: { id: routeId, name: 'uk', prefix: '+44', strategy: 'priority' },
      candidates: [
        { connection: 'carrier-a', cost: '0.0050', usable: true, reason: 'priority 1' },
        { connection: 'carrier-b', cost: '0.0042', usable: true, reason: 'priority 2' },
      ],
      reason: 'route uk (+44, priority): carrier-a, priority 1, cost 0.0050',
      fallback: null,
    });
    const none = await admin.post(ROUTES_API.test, { to: '+14155550100' });
    expect(none.body).toMatchObject({
      route: null,
      fallback: 'carrier-a',
      reason: "No route matches +14155550100: the connections' own prefixes send it through carrier-a",
    });
    expect((await admin.post(ROUTES_API.test, { to: '447700' })).status).toBe(400);
  });

  it('sends by the route, records the decision for operators only, and keeps the cost for the margin', async () => {
    const sent = await user.post('/api/sms/single', { recipients: ['+447400123001'], text: 'Routed hello' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const id = sent.body.messages[0].id as string;
    const [done] = await waitForFinal(user, [id]);
    expect(done.status).toBe('delivered');
    expect(carrierA.stats().submitReceived).toBe(1);
    expect(carrierB.stats().submitReceived).toBe(0);
    expect(await decisionOf(id)).toBe('Routed: route uk (+44, priority): carrier-a, priority 1, cost 0.0050');
    const customer = (await user.get(`/api/sms/log/${id}`)).body.events as { detail: string | null }[];
    expect(customer.some((e) => /Routed|carrier-a|0\.0050/.test(e.detail ?? ''))).toBe(false);
    const routed = await routeOf(id);
    expect(routed).toMatchObject([
      { connection: 'carrier-a', route_name: 'uk', strategy: 'priority', segments: 1 },
    ]);
    expect(Number(routed[0]?.cost_micros)).toBe(5000);
  });

  it('fails over within 2 s when every bind of the first carrier drops, and comes back after it recovers', async () => {
    const restart = carrierA.restart({ downMs: 4000 });
    await until(() => (server.worker!.gateway.boundOf?.('carrier-a') ?? 1) === 0, 5000, 'carrier-a unbound');
    const before = carrierB.stats().submitReceived;
    const started = Date.now();
    const sent = await user.post('/api/sms/single', { recipients: ['+447400123002'], text: 'Failover' });
    const id = sent.body.messages[0].id as string;
    await until(() => carrierB.stats().submitReceived > before, 2000, 'first message through carrier-b');
    expect(Date.now() - started).toBeLessThan(2000);
    const [done] = await waitForFinal(user, [id]);
    expect(done.status).toBe('delivered');
    const routed = await routeOf(id);
    expect(routed).toMatchObject([{ connection: 'carrier-b', route_name: 'uk' }]);
    expect(await decisionOf(id)).toBe('Routed: route uk (+44, priority): carrier-b, priority 2, cost 0.0042');
    await restart;
    await until(
      () => (server.worker!.gateway.boundOf?.('carrier-a') ?? 0) > 0,
      10_000,
      'carrier-a bound again',
    );
    const back = await user.post('/api/sms/single', { recipients: ['+447400123003'], text: 'Back' });
    await waitForFinal(user, [back.body.messages[0].id]);
    const [again] = await routeOf(back.body.messages[0].id);
    expect(again?.connection).toBe('carrier-a');
    // Nothing was sent twice through one connection.
    expect(carrierA.stats().submitReceived + carrierB.stats().submitReceived).toBe(3);
  });

  it('the margin report sets each connection’s cost against the price, by day and country, also as CSV', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await admin.get(`${ROUTES_API.margin}?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    const price = Number(
      (
        await server.ctx.db
          .selectFrom('messages')
          .select('price_minor')
          .where('recipient', '=', '+447400123001')
          .executeTakeFirstOrThrow()
      ).price_minor,
    );
    const rows = res.body.rows as {
      connection: string;
      country: string;
      messages: number;
      costMicros: number;
      priceMinor: number;
      marginMicros: number;
    }[];
    const a = rows.find((r) => r.connection === 'carrier-a');
    const b = rows.find((r) => r.connection === 'carrier-b');
    expect(a).toMatchObject({ country: 'GB', messages: 2, costMicros: 10_000, priceMinor: 2 * price });
    expect(a?.marginMicros).toBe(2 * price * 10_000 - 10_000);
    expect(b).toMatchObject({ country: 'GB', messages: 1, costMicros: 4200, priceMinor: price });
    const csv = await admin.request('GET', `${ROUTES_API.marginCsv}?from=${today}&to=${today}`);
    expect(csv.status).toBe(200);
    const text = String(csv.body);
    expect(text).toMatch(/day,country,connection,messages,segments,price_USD,cost_USD,margin_USD/);
    expect(text).toContain(`${today},GB,carrier-b,1,1,`);
    expect(text).toContain(',0.004200,');
    expect((await admin.get(`${ROUTES_API.margin}?from=${today}&to=2020-01-01`)).status).toBe(400);
  });

  it('an account’s SMS log shows operators each message’s connection, route and carrier cost; nobody else', async () => {
    const path = ROUTES_API.accountLog.replace(':id', accountId);
    const page = await admin.get(`${path}?recipient=%2B447400123001`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({
      recipient: '+447400123001',
      status: 'delivered',
      connection: 'carrier-a',
      route: { name: 'uk', strategy: 'priority', cost: '0.0050', totalCostMicros: 5000 },
    });
    const all = await admin.get(path);
    const failedOver = (all.body.items as { recipient: string; connection: string }[]).find(
      (m) => m.recipient === '+447400123002',
    );
    expect(failedOver?.connection).toBe('carrier-b');
    const id = page.body.items[0].id as string;
    const one = await admin.get(
      ROUTES_API.accountMessage.replace(':id', accountId).replace(':messageId', id),
    );
    expect(one.status).toBe(200);
    expect(one.body.message.route).toMatchObject({ name: 'uk', cost: '0.0050' });
    expect(one.body.events.map((e: { detail: string | null }) => e.detail)).toContain(
      'Routed: route uk (+44, priority): carrier-a, priority 1, cost 0.0050',
    );
    // The account's own user, and another account's path for this message: refused, not found.
    expect((await user.get(path)).status).toBe(403);
    const other = (await server.client().register()).user.accountId;
    const wrong = await admin.get(ROUTES_API.accountMessage.replace(':id', other).replace(':messageId', id));
    expect(wrong.status).toBe(404);
    expect(JSON.stringify(wrong.body)).not.toMatch(/carrier-a/);
  });

  it('another node applies a change within its refresh, with no restart', async () => {
    const other = startRouteRefresh(
      {
        version: () => routesVersion(server.ctx.db),
        load: () => loadRouteDefs(server.ctx.db),
        accountsOnPlans: (ids) => accountsOnPlans(server.ctx.db, ids),
      },
      silentLogger,
    );
    await other.start();
    try {
      const healthy = () => ({ usable: true });
      expect(other.state.table?.decide({ to: '+447700900123' }, healthy)?.candidates[0]?.connection).toBe(
        'carrier-a',
      );
      const changed = await admin.request('PUT', ROUTES_API.one.replace(':id', routeId), {
        ...ukRoute,
        strategy: 'least_cost',
        reason: 'cheapest first',
      });
      expect(changed.status).toBe(200);
      await until(
        () =>
          other.state.table?.decide({ to: '+447700900123' }, healthy)?.candidates[0]?.connection ===
          'carrier-b',
        5000,
        'the other node applied the change',
      );
    } finally {
      other.stop();
    }
  });
});

describe('routes: rotation by delivered ratio', () => {
  it('takes a carrier delivering below the route’s floor out of rotation, audits it, and shows its health', async () => {
    await topUp(server, accountId, 100_000);
    const created = await admin.post(ROUTES_API.list, {
      name: 'floored',
      prefix: '+44740012304',
      strategy: 'priority',
      qualityFloor: 0.8,
      entries: [
        { connection: 'carrier-poor', cost: '0.0030', priority: 1, weight: 1 },
        { connection: 'carrier-b', cost: '0.0042', priority: 2, weight: 1 },
      ],
      reason: 'cheap carrier while it delivers',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await server.worker!.routes.refresh();
    // 24 messages, half of them undelivered: too few receipts to judge until 20 are final.
    const to = Array.from({ length: 24 }, (_, i) => `+4474001230${40 + (i % 10)}`);
    const ids: string[] = [];
    for (const n of to) {
      const sent = await user.post('/api/sms/single', { recipients: [n], text: 'Floored' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      ids.push(sent.body.messages[0].id as string);
      // One at a time, each final before the next: the ratio is judged on what has come back.
      await waitForFinal(user, [ids.at(-1)!]);
    }
    const poorBefore = carrierPoor.stats().submitReceived;
    expect(poorBefore).toBeGreaterThanOrEqual(20);
    // Now out: the next message goes through carrier-b, with the reason in its history.
    const next = await user.post('/api/sms/single', { recipients: ['+447400123040'], text: 'After' });
    const nextId = next.body.messages[0].id as string;
    const [done] = await waitForFinal(user, [nextId]);
    expect(done.status).toBe('delivered');
    const [route] = await routeOf(nextId);
    expect(route?.connection).toBe('carrier-b');
    expect(await decisionOf(nextId)).toMatch(
      /Routed: route floored \(\+44740012304, priority\): carrier-b, priority 2, cost 0\.0042/,
    );
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['kind', 'message', 'actor_user_id'])
      .where('kind', 'like', 'system.route_rotation%')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ kind: 'system.route_rotation_out', actor_user_id: null });
    expect(audit[0]?.message).toMatch(
      /^Connection carrier-poor taken out of route floored's rotation on .+: delivered 5\d(\.\d)?%, below the floor 80%$/,
    );
    // The console: its delivered ratio and receipt median, and the route test's reason.
    await until(
      async () => {
        const status = await admin.get('/api/admin/system');
        const poor = (status.body.connections as { name: string; deliveredRatio: number | null }[]).find(
          (c) => c.name === 'carrier-poor',
        );
        return poor?.deliveredRatio != null;
      },
      5000,
      'the worker reported carrier-poor’s figures',
    );
    const status = await admin.get('/api/admin/system');
    const poor = (
      status.body.connections as {
        name: string;
        deliveredRatio: number;
        finalReceipts: number;
        receiptP50Ms: number | null;
      }[]
    ).find((c) => c.name === 'carrier-poor')!;
    expect(poor.finalReceipts).toBe(poorBefore);
    expect(poor.deliveredRatio).toBeGreaterThan(0.4);
    expect(poor.deliveredRatio).toBeLessThan(0.6);
    // The simulator answers receipts after 20 ms: the median is measured, not made up.
    expect(poor.receiptP50Ms).toBeGreaterThanOrEqual(15);
    expect(poor.receiptP50Ms).toBeLessThan(2000);
    const test = await admin.post(ROUTES_API.test, { to: '+447400123040' });
    expect(test.body.candidates.map((c: { connection: string }) => c.connection)).toEqual([
      'carrier-b',
      'carrier-poor',
    ]);
    expect(test.body.candidates[1].reason).toMatch(
      /^out of rotation: delivered 5\d(\.\d)?%, below the route's floor 80%/,
    );
  });
});
