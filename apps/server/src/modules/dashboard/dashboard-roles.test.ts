import { ACCOUNT_ROLES, ROLE_PERMISSIONS } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/dashboard/summary for each role (issue 39)', () => {
  it('answers every member with the figures their role may see, and never a 403', async () => {
    const owner = server.client();
    await owner.register();
    for (const role of ACCOUNT_ROLES) {
      const client = role === 'owner' ? owner : (await joinAs(server, owner, role)).client;
      const res = await client.get('/api/dashboard/summary');
      expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(200);
      const may = ROLE_PERMISSIONS[role];
      expect('balance' in res.body, role).toBe(may.includes('billing:read'));
      expect('deliveryStatus' in res.body, role).toBe(may.includes('messages:read'));
      expect('performance' in res.body, role).toBe(may.includes('messages:read'));
    }
  });

  it('gives a billing member the balance only, and a sender no balance', async () => {
    const owner = server.client();
    await owner.register();
    const billing = (await joinAs(server, owner, 'billing')).client;
    expect((await billing.get('/api/dashboard/summary')).body).toEqual({
      balance: { balanceMinor: 500, currency: 'USD' },
    });
    const sender = (await joinAs(server, owner, 'sender')).client;
    const body = (await sender.get('/api/dashboard/summary')).body;
    expect(body.balance).toBeUndefined();
    expect(body.performance).toHaveLength(30);
  });
});
