import { connect as netConnect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer, type Server } from 'node:tls';
import type { SmscHandle } from '@wren/smsc-simulator';
import { CONNECTIONS_API, ROUTES_API } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { topUp, waitForFinal } from '../../../test/messaging';
import { startWorker, type Worker } from '../../app/worker';
import { smppTlsCredentials } from '../smpp-server/tls-cert';
import { carrier, carrierConnection } from './test-carriers';

/**
 * Issue 38 item 1 through the real server, PostgreSQL, two worker nodes and simulated carriers:
 * connections seeded from SMSC_CONNECTIONS, then added, edited, drained and removed in the
 * console while Wren runs; each change applied on both nodes with no restart, the replaced
 * sessions closed; SMPP over TLS with and without certificate checks; passwords never shown and
 * sealed at rest; every change audited; bad input answered field by field.
 */
let server: TestServer;
let node2: TestServer;
let worker2: Worker;
let admin: ApiClient;
let user: ApiClient;
let carrierA: SmscHandle;
let carrierB: SmscHandle;
let carrierC: SmscHandle;
let tlsProxy: Server;

async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const reason = { reason: 'carrier contract signed' };
const bound = (c: SmscHandle) => c.stats().boundSessions;

/** A console connection to a simulated carrier (Wren's test credentials). */
const entry = (name: string, port: number, prefixes: string[], more: Record<string, unknown> = {}) => ({
  ...carrierConnection(name, port, prefixes),
  ...reason,
  ...more,
});

async function send(to: string, text = 'Connections test') {
  const res = await user.post('/api/sms/single', { recipients: [to], text });
  expect(res.status).toBe(202);
  return res.body.messages[0].id as string;
}

async function connectionOf(id: string) {
  const row = await server.ctx.db
    .selectFrom('messages')
    .select('connection')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.connection ?? null;
}

async function auditKinds(name: string) {
  const rows = await server.ctx.db
    .selectFrom('audit_log')
    .select(['kind', 'message'])
    .where('resource_type', '=', 'smsc_connection')
    .where('resource_id', '=', name)
    .orderBy('created_at')
    .execute();
  return rows;
}

beforeAll(async () => {
  [carrierA, carrierB, carrierC] = await Promise.all([carrier(), carrier(), carrier()]);
  server = await startServer(
    {
      SMSC_CONNECTIONS: JSON.stringify([carrierConnection('carrier-a', carrierA.port, [])]),
      SMSC_RECONNECT_BASE_MS: '50',
      SMSC_RECONNECT_MAX_MS: '200',
      SMSC_ENQUIRE_LINK_SECONDS: '0.5',
    },
    { worker: true },
  );
  // A second node on the same database, with no connection of its own in its environment.
  node2 = await startServer(
    { SMSC_RECONNECT_BASE_MS: '50', SMSC_RECONNECT_MAX_MS: '200' },
    { databaseUrl: server.databaseUrl },
  );
  worker2 = await startWorker(node2.ctx, 'connections-node-2');
  admin = server.client();
  const reg = await admin.register();
  await server.ctx.services.users.promote(reg.user.username);
  admin.useSession(
    (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
  );
  user = server.client();
  const u = await user.register();
  await topUp(server, u.user.accountId, 100_000);
  // SMPP over TLS: a TLS front (self-signed certificate) for carrier B.
  const dir = mkdtempSync(path.join(tmpdir(), 'wren-conn-tls-'));
  const creds = await smppTlsCredentials({ dataDir: dir, hostname: 'localhost' });
  tlsProxy = createTlsServer({ key: creds.key, cert: creds.cert }, (socket) => {
    const upstream = netConnect(carrierB.port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((r) => tlsProxy.listen(0, '127.0.0.1', () => r()));
}, 60_000);

afterAll(async () => {
  await worker2?.stop();
  await node2?.close();
  await server?.close();
  tlsProxy?.close();
  await Promise.all([carrierA, carrierB, carrierC].map((c) => c?.close()));
});

// Each change waits for both nodes' next report and a graceful rebind: slow on a loaded machine.
describe('carrier connections in the console (issue 38 item 1)', { timeout: 45_000 }, () => {
  it('seeds the environment’s connection on start; lists it with no password; keeps the password sealed', async () => {
    const res = await admin.get(CONNECTIONS_API.list);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        name: 'carrier-a',
        origin: 'env',
        host: '127.0.0.1',
        port: carrierA.port,
        systemId: 'wren',
        passwordSet: true,
        prefixes: [],
        draining: false,
        paused: false,
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('wrenpass');
    const row = await server.ctx.db
      .selectFrom('smsc_connections')
      .select(['password_enc', 'settings'])
      .executeTakeFirstOrThrow();
    expect(row.password_enc).not.toContain('wrenpass');
    expect(JSON.stringify(row.settings)).not.toContain('wrenpass');
    // Both nodes bound carrier A: the second from the stored connection alone.
    await until(() => bound(carrierA) === 2, 10_000, 'carrier A bound by both nodes');
  });

  it('answers bad input field by field, and never with a 500', async () => {
    const clash = await admin.post(CONNECTIONS_API.list, entry('carrier-x', carrierB.port, []));
    expect(clash.status).toBe(400);
    expect(clash.body.errors.prefixes[0]).toContain('carrier-a is already the default connection');
    const bad = await admin.post(CONNECTIONS_API.list, {
      ...entry('bad name', 70_000, ['44']),
      host: 'has space',
      window: 0,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(
      expect.arrayContaining(['host', 'name', 'port', 'prefixes.0', 'window']),
    );
    const noReason = await admin.post(CONNECTIONS_API.list, {
      ...entry('carrier-x', 1, ['+44']),
      reason: '',
    });
    expect(noReason.status).toBe(400);
    const missing = await admin.request(
      'PUT',
      CONNECTIONS_API.one.replace(':name', 'nope'),
      entry('nope', 1, ['+44']),
    );
    expect(missing.status).toBe(404);
    const twin = await admin.post(CONNECTIONS_API.list, entry('carrier-a', carrierB.port, ['+44']));
    expect(twin.status).toBe(400);
    expect(twin.body.errors.name).toEqual(['Another connection has that name']);
    // A member of an account is not an operator.
    expect((await user.get(CONNECTIONS_API.list)).status).toBe(403);
    expect((await user.post(CONNECTIONS_API.list, entry('mine', carrierB.port, ['+44']))).status).toBe(403);
  });

  it('adds a connection while running: both nodes bind it within seconds and its prefix sends through it', async () => {
    const created = await admin.post(CONNECTIONS_API.list, entry('carrier-b', carrierB.port, ['+44']));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'carrier-b', origin: 'console', passwordSet: true });
    expect(created.body).not.toHaveProperty('password');
    const started = Date.now();
    await until(() => bound(carrierB) === 2, 10_000, 'carrier B bound by both nodes');
    expect(Date.now() - started).toBeLessThan(5000);
    const id = await send('+447400123001');
    const [m] = await waitForFinal(user, [id], 40_000);
    expect(m).toMatchObject({ status: 'delivered' });
    expect(await connectionOf(id)).toBe('carrier-b');
    expect((await auditKinds('carrier-b')).map((a) => a.kind)).toEqual(['admin.connection_created']);
  });

  it('an edit rebinds it with the new settings on both nodes (old sessions unbound) and keeps the password', async () => {
    const unbindsBefore = carrierB.stats().unbinds;
    const { password: _password, ...withoutPassword } = entry('carrier-b', carrierC.port, ['+44']);
    const res = await admin.request('PUT', CONNECTIONS_API.one.replace(':name', 'carrier-b'), {
      ...withoutPassword,
      window: 20,
      reason: 'moved to the carrier’s second site',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ port: carrierC.port, window: 20, passwordSet: true });
    await until(() => bound(carrierB) === 0 && bound(carrierC) === 2, 20_000, 'moved from B to C');
    // Closed gracefully: an unbind per session, not a dropped socket.
    expect(carrierB.stats().unbinds - unbindsBefore).toBe(2);
    const id = await send('+447400123002');
    await waitForFinal(user, [id], 40_000);
    expect([...carrierC.messages.values()].some((m) => m.dest.endsWith('447400123002'))).toBe(true);
    const audit = await auditKinds('carrier-b');
    expect(audit.at(-1)?.kind).toBe('admin.connection_changed');
    expect(audit.at(-1)?.message).toContain('changed port, window');
    expect(audit.at(-1)?.message).not.toContain('wrenpass');
  });

  it('a drain stops new messages through it while its binds stay up; its end lets them go', async () => {
    const drain = CONNECTIONS_API.drain.replace(':name', 'carrier-b');
    expect((await admin.post(drain, { reason: 'carrier maintenance tonight' })).status).toBe(200);
    expect((await admin.post(drain, { reason: 'carrier maintenance tonight' })).status).toBe(409);
    // Applied at the workers' next report.
    await new Promise((r) => setTimeout(r, 2500));
    const before = carrierC.stats().submitReceived;
    const id = await send('+447400123003');
    await new Promise((r) => setTimeout(r, 1500));
    expect(carrierC.stats().submitReceived).toBe(before);
    expect(bound(carrierC)).toBe(2);
    const queued = (await user.get(`/api/sms/log/${id}`)).body.message;
    expect(queued.status).toBe('queued');
    expect((await admin.request('DELETE', drain, { reason: 'maintenance over' })).status).toBe(200);
    const [m] = await waitForFinal(user, [id], 40_000);
    expect(m).toMatchObject({ status: 'delivered' });
    expect(await connectionOf(id)).toBe('carrier-b');
    expect((await auditKinds('carrier-b')).map((a) => a.kind).slice(-2)).toEqual([
      'admin.connection_drain_started',
      'admin.connection_drain_ended',
    ]);
  });

  it('SMPP over TLS: binds through a TLS front when the certificate is not checked, refuses a self-signed one when it is', async () => {
    const port = (tlsProxy.address() as { port: number }).port;
    const boundBefore = bound(carrierB);
    const res = await admin.post(
      CONNECTIONS_API.list,
      entry('carrier-tls', port, ['+33'], { tls: true, tlsVerify: false }),
    );
    expect(res.status).toBe(201);
    // Through the TLS front, the sessions bind at carrier B: one per node.
    await until(() => bound(carrierB) === boundBefore + 2, 10_000, 'bound over TLS by both nodes');
    const id = await send('+33612345678');
    const [m] = await waitForFinal(user, [id], 40_000);
    expect(m).toMatchObject({ status: 'delivered' });
    expect(await connectionOf(id)).toBe('carrier-tls');
    expect([...carrierB.messages.values()].some((x) => x.dest.endsWith('33612345678'))).toBe(true);

    const { password: _p, name: _n, ...rest } = entry('carrier-tls', port, ['+33'], { tls: true });
    const verify = await admin.request('PUT', CONNECTIONS_API.one.replace(':name', 'carrier-tls'), {
      ...rest,
      tlsVerify: true,
    });
    expect(verify.status).toBe(200);
    await until(
      async () => {
        const status = (await admin.get('/api/admin/system')).body;
        return status.connections.some(
          (c: { name: string; bound: number; lastError: string | null }) =>
            c.name === 'carrier-tls' && c.bound === 0 && /certificate/i.test(c.lastError ?? ''),
        );
      },
      10_000,
      'the self-signed certificate refused',
    );
  });

  it('a connection a route lists is not removed; once out of the route it is, and its sessions close', async () => {
    const route = await admin.post(ROUTES_API.list, {
      name: 'UK via B',
      prefix: '+44',
      strategy: 'priority',
      entries: [{ connection: 'carrier-b', cost: '0.0042' }],
      reason: 'UK traffic',
    });
    expect(route.status).toBe(201);
    const one = CONNECTIONS_API.one.replace(':name', 'carrier-b');
    const refused = await admin.request('DELETE', one, { reason: 'contract ended' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('UK via B');
    expect(
      (
        await admin.request('DELETE', ROUTES_API.one.replace(':id', route.body.id), {
          reason: 'contract ended',
        })
      ).status,
    ).toBe(204);
    expect((await admin.request('DELETE', one, { reason: 'contract ended' })).status).toBe(204);
    await until(() => bound(carrierC) === 0, 10_000, 'carrier C unbound on both nodes');
    const list = (await admin.get(CONNECTIONS_API.list)).body.items.map((c: { name: string }) => c.name);
    expect(list).not.toContain('carrier-b');
    // +44 now has no connection of its own: the default (carrier A) takes it.
    const id = await send('+447400123004');
    await waitForFinal(user, [id], 40_000);
    expect(await connectionOf(id)).toBe('carrier-a');
    expect((await auditKinds('carrier-b')).at(-1)?.kind).toBe('admin.connection_removed');
    expect((await admin.request('DELETE', one, { reason: 'contract ended' })).status).toBe(404);
  });

  it('an operator’s edit of a seeded connection is kept over the environment at the next start', async () => {
    const { password: _p, name: _n, ...rest } = entry('carrier-a', carrierA.port, []);
    const res = await admin.request('PUT', CONNECTIONS_API.one.replace(':name', 'carrier-a'), {
      ...rest,
      window: 7,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ origin: 'console', window: 7 });
    await server.restartWorker();
    const after = (await admin.get(CONNECTIONS_API.list)).body.items.find(
      (c: { name: string }) => c.name === 'carrier-a',
    );
    expect(after).toMatchObject({ origin: 'console', window: 7 });
  });
});
