import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

// Sends made at the same moment read their suppressions and limits in shared statements
// (platform/coalesce.ts). Each must still get its own account's answer.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
});
afterAll(async () => {
  await server?.close();
});

describe('sends whose lookups share a statement', () => {
  it('screen and limit each send by its own account, never by another sent at the same moment', async () => {
    const a = server.client();
    const b = server.client();
    const regA = await a.register();
    await b.register();
    const optedOut = '+12125550188';
    const london = '+442079460018';
    // A: the number opted out; B: only US destinations allowed.
    expect((await a.post('/api/suppressions', { phone: optedOut })).status).toBeLessThan(300);
    const regB = (await b.get('/api/me')).body as { accountId: string };
    await server.ctx.db
      .updateTable('accounts')
      .set({ allowed_countries: ['US'] })
      .where('id', '=', regB.accountId)
      .execute();
    expect(regA.user.accountId).not.toBe(regB.accountId);

    const expected = (account: 'A' | 'B', to: string) =>
      account === 'A' ? (to === optedOut ? 'opted out' : 'sent') : to === london ? 'country' : 'sent';
    const outcome = (ok: boolean, detail: string) =>
      ok ? 'sent' : /Opted out/.test(detail) ? 'opted out' : /countr/i.test(detail) ? 'country' : detail;

    // 40 sends started in the same turn of the event loop (so their lookups share statements), the
    // two accounts interleaved, to both numbers.
    const users = { A: regA.user, B: { accountId: regB.accountId, id: null } };
    const direct = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        server.ctx.services.messages.sendSingle({
          recipients: [i % 4 < 2 ? optedOut : london],
          text: `Moment ${i}`,
          accountId: (i % 2 === 0 ? users.A : users.B).accountId,
          userId: null,
        }),
      ),
    );
    direct.forEach((r, i) => {
      const account = i % 2 === 0 ? 'A' : 'B';
      const to = i % 4 < 2 ? optedOut : london;
      const got = outcome(
        r.status === 'fulfilled',
        r.status === 'rejected' ? JSON.stringify(r.reason) + String(r.reason) : '',
      );
      expect(`${account} → ${to}: ${got}`).toBe(`${account} → ${to}: ${expected(account, to)}`);
    });

    // The same through HTTP, 40 requests at once.
    const sends = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const c = i % 2 === 0 ? a : b;
        const to = i % 4 < 2 ? optedOut : london;
        return c
          .post('/api/sms/single', { recipients: [to], text: `Moment ${i}` })
          .then((r) => ({ i, to, r }));
      }),
    );
    for (const { i, to, r } of sends) {
      const account = i % 2 === 0 ? 'A' : 'B';
      const got = outcome(r.status === 202, `${r.status} ${JSON.stringify(r.body)}`);
      expect(`${account} → ${to}: ${got}`).toBe(`${account} → ${to}: ${expected(account, to)}`);
    }
  });
});
