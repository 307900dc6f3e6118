import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_ROLES,
  HUB_COMMANDS,
  HUB_REQUESTS,
  roleCan,
  type AccountRole,
  type PermissionDeclaration,
} from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { routeTable } from '../../platform/http/route-auth';
import { HUB_PERMISSIONS } from '../../realtime/hub-methods';
import { call, connectHub } from '../../realtime/test-client';
import { joinAs } from './test-fixtures';

/**
 * Issue 39 item 2: every user route and every hub method, for every role. A role with the
 * route's permission is let through the check (the answer is the route's own: 2xx, 400, 404…);
 * a role without it gets 403 PERMISSION_DENIED before the body is read. Members sign in through
 * the real invite flow. No answer to any role shows another account's data.
 */
let server: TestServer;
let other: ApiClient;
const asRole = {} as Record<AccountRole, ApiClient>;
const OTHER_SECRET = 'Other account secret template';

/** Routes whose allowed call would end the caller's session (checked as declared, not called). */
const ENDS_SESSION = new Set(['POST /api/auth/logout']);

beforeAll(async () => {
  server = await startServer();
  const owner = server.client();
  await owner.register();
  asRole.owner = owner;
  for (const role of ACCOUNT_ROLES) {
    if (role !== 'owner') asRole[role] = (await joinAs(server, owner, role)).client;
  }
  other = server.client();
  await other.register();
  expect((await other.post('/api/templates', { name: OTHER_SECRET, text: 'secret' })).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
});

const fill = (url: string) => url.replace(/:\w+/g, () => randomUUID());

describe('role matrix (issue 39)', () => {
  it('every user route, for every role: allowed with the permission, 403 PERMISSION_DENIED without', async () => {
    const routes = routeTable(server.app).filter((r) => r.access === 'user' && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    let tried = 0;
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      const permission = r.permission as PermissionDeclaration;
      if (ENDS_SESSION.has(key)) {
        expect(permission, key).toBe('self');
        continue;
      }
      for (const role of ACCOUNT_ROLES) {
        const res = await asRole[role].request(r.method, fill(r.url));
        tried += 1;
        const denied = res.status === 403 && (res.body as { code?: string })?.code === 'PERMISSION_DENIED';
        const allowed = roleCan(role, permission);
        if (allowed === denied) failures.push(`${key} as ${role} (${permission}) -> ${res.status}`);
        if (res.status === 401) failures.push(`${key} as ${role} -> 401 (session ended?)`);
        if (JSON.stringify(res.body ?? '').includes(OTHER_SECRET)) failures.push(`${key} as ${role} leaks`);
      }
    }
    expect(failures).toEqual([]);
    console.log(`role matrix (routes): ${tried} cases tried, ${failures.length} failures`);
  });

  it('every hub method, for every role: allowed with the permission, PERMISSION_DENIED without', async () => {
    const methods = [...HUB_REQUESTS, ...HUB_COMMANDS];
    expect(Object.keys(HUB_PERMISSIONS).sort()).toEqual([...methods].sort());
    const failures: string[] = [];
    let tried = 0;
    for (const role of ACCOUNT_ROLES) {
      const socket = await connectHub(server.url, asRole[role].accessToken!);
      try {
        for (const method of methods) {
          const args = method === 'SaveSmsTemplate' ? [`${role} hub template`, 'hi'] : [randomUUID()];
          const ack = await call(socket, method, ...args);
          tried += 1;
          const denied = !ack.ok && ack.error.code === 'PERMISSION_DENIED';
          if (roleCan(role, HUB_PERMISSIONS[method]) === denied)
            failures.push(`${method} as ${role} -> ${JSON.stringify(ack)}`);
          if (JSON.stringify(ack).includes(OTHER_SECRET)) failures.push(`${method} as ${role} leaks`);
        }
      } finally {
        socket.close();
      }
    }
    expect(failures).toEqual([]);
    console.log(`role matrix (hub): ${tried} cases tried, ${failures.length} failures`);
  });

  it('a member cannot give an API key scopes beyond their role', async () => {
    const dev = asRole.developer;
    const ok = await dev.post('/api/api-keys', { name: 'dev key', scopes: ['sms:send', 'otp'] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const beyond = await dev.post('/api/api-keys', { name: 'dev key 2', scopes: ['contacts:write'] });
    expect(beyond.status).toBe(400);
    expect(JSON.stringify(beyond.body)).toContain('contacts:write');
    const patch = await dev.request('PATCH', `/api/api-keys/${ok.body.key.id}`, { scopes: ['balance:read'] });
    expect(patch.status).toBe(400);
    const owner = await asRole.owner.post('/api/api-keys', { name: 'all', scopes: ['contacts:write'] });
    expect(owner.status).toBe(201);
  });

  it('SMPP accounts (issue 37): a developer manages them, a sender or analyst cannot even list them', async () => {
    const made = await asRole.developer.post('/api/smpp-accounts', {
      name: 'dev smpp',
      systemId: 'devsmpp1',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = (made.body as { account: { id: string } }).account.id;
    expect((await asRole.admin.get(`/api/smpp-accounts/${id}`)).status).toBe(200);
    for (const role of ['sender', 'analyst', 'billing'] as const) {
      for (const [method, path] of [
        ['GET', '/api/smpp-accounts'],
        ['POST', `/api/smpp-accounts/${id}/rotate`],
        ['GET', `/api/smpp-accounts/${id}/binds`],
      ] as const) {
        const res = await asRole[role].request(method, path);
        expect(res.status, `${method} ${path} as ${role}`).toBe(403);
        expect(JSON.stringify(res.body)).not.toContain('devsmpp1');
      }
    }
  });
});
