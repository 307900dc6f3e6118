import {
  ACCOUNT_ROLES,
  HUB_PUSH_PERMISSIONS,
  HUB_PUSHES,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  type AccountRole,
} from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { joinAs } from '../modules/members/test-fixtures';
import type { DomainEvents } from '../platform/events';
import { connectHub, pushesSettled, recordPushes, until, type HubClient } from './test-client';

/** One domain event that causes each account push (pushes.ts), so every push type is exercised. */
const CAUSES: Record<keyof typeof HUB_PUSH_PERMISSIONS, (accountId: string) => [keyof DomainEvents, object]> =
  {
    UserAccountUpdated: (accountId) => ['balance.changed', { accountId }],
    SenderIdUpdated: (accountId) => ['sender.changed', { accountId }],
    GroupListUpdated: (accountId) => ['group.changed', { accountId }],
    SmsTemplatesUpdated: (accountId) => ['template.changed', { accountId }],
    UserSmsDeliveryUpdated: (accountId) => ['messages.changed', { accountId, campaignIds: [] }],
    BulkSmsUpdated: (accountId) => ['campaign.changed', { accountId, campaignId: 'camp-1' }],
    InboundSmsReceived: (accountId) => ['inbound.received', { accountId }],
    OtpServiceUpdated: (accountId) => ['otp.changed' as keyof DomainEvents, { accountId, serviceId: 's-1' }],
  };

describe('each hub push needs a permission (issue 39)', () => {
  it('names one for every account push, a real permission, and none for the operators’ push', () => {
    const accountPushes = HUB_PUSHES.filter((p) => p !== 'SystemStatusUpdated');
    // A new push type without an entry fails here (and in tsc): it would reach no socket at all.
    expect(Object.keys(HUB_PUSH_PERMISSIONS).sort()).toEqual([...accountPushes].sort());
    for (const p of Object.values(HUB_PUSH_PERMISSIONS)) expect(PERMISSIONS).toContain(p);
    expect(Object.keys(CAUSES).sort()).toEqual([...accountPushes].sort());
  });
});

/**
 * Two nodes on one database: members of one account, of every role, connected to node A; the events
 * happen on node B (pushes cross through the PostgreSQL adapter, to the permission's room).
 */
describe('a push reaches only the roles that may see it, across two nodes', () => {
  let a: TestServer;
  let b: TestServer;
  const sockets: HubClient[] = [];

  beforeAll(async () => {
    a = await startServer();
    b = await startServer({}, { databaseUrl: a.databaseUrl });
    const count = (s: TestServer) => s.app.hub.io.of('/').adapter.serverCount();
    await until(async () => (await count(a)) === 2 && (await count(b)) === 2, 15_000, 'two hub nodes');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.close();
    await a?.close();
  });

  it('delivers each push type to exactly the roles with its permission', async () => {
    const owner = a.client();
    const login = await owner.register();
    const accountId = login.user.accountId;
    const tokens: Record<AccountRole, string> = { owner: login.accessToken } as Record<AccountRole, string>;
    for (const role of ACCOUNT_ROLES.filter((r) => r !== 'owner'))
      tokens[role] = (await joinAs(a, owner, role)).client.accessToken!;
    const recs = {} as Record<AccountRole, ReturnType<typeof recordPushes>>;
    for (const role of ACCOUNT_ROLES) {
      const socket = await connectHub(a.url, tokens[role]);
      sockets.push(socket);
      recs[role] = recordPushes(socket);
    }
    await Promise.all([pushesSettled(a.app), pushesSettled(b.app)]);
    for (const rec of Object.values(recs)) rec.clear();

    for (const [push, cause] of Object.entries(CAUSES)) {
      const [event, payload] = cause(accountId);
      b.ctx.events.publish(event, payload as never);
      const allowed = ACCOUNT_ROLES.filter((r) =>
        ROLE_PERMISSIONS[r].includes(HUB_PUSH_PERMISSIONS[push as keyof typeof HUB_PUSH_PERMISSIONS]),
      );
      expect(allowed, push).toContain('owner');
      await until(() => allowed.every((r) => recs[r].count(push) >= 1), 5_000, `${push} to ${allowed}`);
    }
    await Promise.all([pushesSettled(a.app), pushesSettled(b.app)]);
    for (const role of ACCOUNT_ROLES) {
      const got = [...new Set(recs[role].pushes.map((p) => p.event))].sort();
      const may = Object.entries(HUB_PUSH_PERMISSIONS)
        .filter(([, perm]) => ROLE_PERMISSIONS[role].includes(perm))
        .map(([push]) => push)
        .sort();
      expect(got, role).toEqual(may);
    }
    // Concretely: the billing member hears of the balance only, the sender never of the balance.
    expect(recs.billing.count('UserSmsDeliveryUpdated')).toBe(0);
    expect(recs.billing.count('UserAccountUpdated')).toBeGreaterThanOrEqual(1);
    expect(recs.sender.count('UserAccountUpdated')).toBe(0);
    expect(recs.analyst.count('OtpServiceUpdated')).toBe(0);
  });
});
