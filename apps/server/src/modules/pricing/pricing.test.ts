import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('pricing fails closed', () => {
  it('refuses a destination that no price of the rate plan covers, storing and charging nothing', async () => {
    const c = server.client();
    const { user } = await c.register();
    const db = server.ctx.db;
    // A plan with UK prices only, and no '' (everywhere else) row.
    const plan = await db
      .insertInto('rate_plans')
      .values({ name: `uk-only-${user.accountId}`, currency: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('rate_plan_prices')
      .values({ plan_id: plan.id, prefix: '+44', country: 'GB', price_minor: 4 })
      .execute();
    await db
      .updateTable('accounts')
      .set({ rate_plan_id: plan.id })
      .where('id', '=', user.accountId)
      .execute();
    const before = (await c.get('/api/balance')).body;

    const refused = await c.post('/api/sms/single', {
      recipients: ['+447911123456', '+14155550123'],
      text: 'Hi',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/no price for \+14155550123/);
    expect(refused.headers.get('application-error')).toMatch(/no price/);
    const stored = await db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', user.accountId)
      .execute();
    expect(stored).toEqual([]);
    expect((await c.get('/api/balance')).body).toEqual(before);

    // A covered destination is priced by the plan.
    const ok = await c.post('/api/sms/single', { recipients: ['+447911123456'], text: 'Hi' });
    expect(ok.status).toBe(202);
    expect(ok.body.messages[0].priceMinor).toBe(4);
  });
});
