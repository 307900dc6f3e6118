import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertMessages } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

async function userIn(timezone: string) {
  const c = server.client();
  const { user } = await c.register();
  const res = await c.patch('/api/me', { timezone });
  expect(res.status).toBe(200);
  return { accountId: user.accountId, userId: user.id };
}

/** Local date and wall-clock time of an instant in a time zone. */
function local(instant: string | Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
  };
}

const minusDays = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

describe("dashboard periods in the user's time zone", () => {
  it.each(['Pacific/Kiritimati', 'America/New_York', 'Asia/Kolkata', 'UTC'])(
    'cuts today, 7 and 30 days at local midnights (%s)',
    async (tz) => {
      const caller = await userIn(tz);
      const { timezone, since } = await server.ctx.services.dashboard.deliveryStatus(caller);
      expect(timezone).toBe(tz);
      const today = local(new Date(), tz).date;
      expect(local(since.today, tz)).toEqual({ date: today, time: '00:00:00' });
      expect(local(since.week, tz)).toEqual({ date: minusDays(today, 6), time: '00:00:00' });
      expect(local(since.month, tz)).toEqual({ date: minusDays(today, 29), time: '00:00:00' });

      const perf = await server.ctx.services.dashboard.performance(caller);
      expect(perf.map((p) => p.date)).toEqual(Array.from({ length: 30 }, (_, i) => minusDays(today, 29 - i)));
    },
  );

  it('puts a message on the local day it was created', async () => {
    const tz = 'Pacific/Kiritimati'; // UTC+14: the local day differs from the UTC day most of the time
    const caller = await userIn(tz);
    const { since } = await server.ctx.services.dashboard.deliveryStatus(caller);
    const midnight = new Date(since.today).getTime();
    await insertMessages(server.ctx.db, caller.accountId, [
      { status: 'delivered', createdAt: new Date(midnight - 60_000) }, // yesterday, local
      { status: 'undelivered', createdAt: new Date(Math.min(midnight + 60_000, Date.now())) }, // today
      { status: 'delivered', createdAt: new Date(new Date(since.month).getTime() - 60_000) }, // 31st day back
    ]);
    const { periods } = await server.ctx.services.dashboard.deliveryStatus(caller);
    expect(periods.today).toMatchObject({ delivered: 0, undelivered: 1 });
    expect(periods.week).toMatchObject({ delivered: 1, undelivered: 1 });
    expect(periods.month).toMatchObject({ delivered: 1, undelivered: 1 });

    const perf = await server.ctx.services.dashboard.performance(caller);
    expect(perf.at(-1)).toMatchObject({ sent: 1, delivered: 0, failed: 1, deliveryRate: 0 });
    expect(perf.at(-2)).toMatchObject({ sent: 1, delivered: 1, failed: 0, deliveryRate: 1 });
    expect(perf.slice(0, -2).every((p) => p.sent === 0 && p.failed === 0)).toBe(true);
  });

  it('counts sent and failed as the dashboard defines them', async () => {
    const caller = await userIn('UTC');
    await insertMessages(
      server.ctx.db,
      caller.accountId,
      (
        [
          'scheduled',
          'queued',
          'sending',
          'sent',
          'delivered',
          'undelivered',
          'expired',
          'rejected',
          'failed',
          'canceled',
        ] as const
      ).map((status) => ({ status })),
    );
    const perf = await server.ctx.services.dashboard.performance(caller);
    // sent: sent + delivered + undelivered + expired + rejected; failed: undelivered + expired + rejected + failed.
    expect(perf.at(-1)).toEqual({
      date: local(new Date(), 'UTC').date,
      sent: 5,
      delivered: 1,
      failed: 4,
      deliveryRate: 0.2,
    });
  });

  it('falls back to UTC when the stored time zone is unknown', async () => {
    const caller = await userIn('UTC');
    await server.ctx.db
      .updateTable('users')
      .set({ timezone: 'Mars/Olympus_Mons' })
      .where('id', '=', caller.userId)
      .execute();
    const summary = await server.ctx.services.dashboard.summary(caller);
    expect(summary.deliveryStatus?.timezone).toBe('UTC');
    expect(summary.performance).toHaveLength(30);
    expect(summary.balance).toEqual({ balanceMinor: 500, currency: 'USD' });
  });
});
