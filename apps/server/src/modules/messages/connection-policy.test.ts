import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage, waitForFinal } from '../../../test/messaging';

/**
 * Per-connection receipt and resend policies (issue #18) through the real server, worker, SMPP bind
 * and simulator: the unanswered window on the OTP lane is sent again, sent messages carry a receipt
 * deadline by lane and end as `unknown` when it passes, and ACCEPTD / unknown stat words are read by
 * the connection's rules.
 */
let server: TestServer;
let accountId: string;
beforeAll(async () => {
  server = await startServer(
    {
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      SMSC_RESPONSE_TIMEOUT_MS: '800',
      SMSC_ENQUIRE_LINK_SECONDS: '0.5',
      SMSC_RECONNECT_BASE_MS: '50',
      SMSC_RECEIPT_TIMEOUT_MINUTES: '2880',
      SMSC_OTP_RECEIPT_TIMEOUT_MINUTES: '30',
      REFUND_STATUSES: 'unknown',
      TRIAL_BALANCE_MINOR: '1000',
    },
    { worker: true },
  );
  accountId = (await server.client().register()).user.accountId;
});
afterAll(async () => {
  await server?.close();
});

/** A message queued on a lane (0 = OTP, 1 = single), as a send would store it. */
async function queue(recipient: string, priority: number) {
  const id = await insertTestMessage(server, { accountId, status: 'queued', priority, recipient });
  server.ctx.events.publish('messages.queued', {});
  return id;
}

const row = (id: string) =>
  server.ctx.db
    .selectFrom('messages')
    .select(['status', 'error', 'submitted_at', 'receipt_due_at', 'refunded', 'smsc_stat'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function until(check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const submitsTo = (dest: string) =>
  [...server.worker!.simulator!.messages.values()].filter((m) => m.dest === dest).length;

describe('the unanswered window', () => {
  it('sends an unanswered OTP again (marked as a possible duplicate) and fails an unanswered single SMS', async () => {
    const sim = server.worker!.simulator!;
    sim.setOptions({ halfOpen: true });
    const otp = await queue('+12125550701', 0);
    const single = await queue('+12125550702', 1);
    await until(async () => (await row(single)).status === 'failed');
    await until(async () => {
      const events = await server.ctx.db
        .selectFrom('message_events')
        .select('detail')
        .where('message_id', '=', otp)
        .execute();
      return events.some((e) => /sent again — the handset may receive it twice/.test(e.detail ?? ''));
    });
    sim.setOptions({ halfOpen: undefined });
    sim.dropAll();
    await until(async () => (await row(otp)).status === 'delivered');
    expect((await row(single)).error).toMatch(/No answer from the SMSC/);
    // The OTP reached the SMSC again after the window was lost; the single SMS did not.
    expect(submitsTo('12125550701')).toBeGreaterThanOrEqual(1);
    expect(submitsTo('12125550702')).toBeLessThanOrEqual(1);
  });
});

describe('the receipt deadline', () => {
  it('is set on sent by lane, shown while waiting, and ends a silent message as unknown with a refund', async () => {
    const sim = server.worker!.simulator!;
    // The SMSC restarts before it sends the receipts, and forgets them.
    sim.setOptions({ receiptDelayMs: 2_000, loseReceiptsOnRestart: true });
    try {
      const c = server.client();
      await c.register();
      const res = await c.post('/api/sms/single', { recipients: ['+12125550703'], text: 'No receipt' });
      expect(res.status).toBe(202);
      const single = res.body.messages[0].id as string;
      const otp = await queue('+12125550704', 0);
      await until(async () => (await row(single)).status === 'sent' && (await row(otp)).status === 'sent');
      await sim.restart({ downMs: 50 });
      expect(sim.stats().receiptsLost).toBeGreaterThanOrEqual(2);
      const minutes = async (id: string) => {
        const r = await row(id);
        return Math.round((r.receipt_due_at!.getTime() - r.submitted_at!.getTime()) / 60_000);
      };
      expect(await minutes(single)).toBe(2880);
      expect(await minutes(otp)).toBe(30);
      const shown = await c.get(`/api/sms/log/${single}`);
      expect(shown.body.message.receiptDueAt).toBe((await row(single)).receipt_due_at!.toISOString());

      // Time passes: the deadline is behind us (parts submitted long ago).
      await server.ctx.db
        .updateTable('messages')
        .set({ receipt_due_at: new Date(Date.now() - 1000) })
        .where('id', '=', single)
        .execute();
      await server.ctx.db
        .updateTable('message_parts')
        .set({ created_at: new Date(Date.now() - 3_600_000) })
        .where('message_id', '=', single)
        .execute();
      await server.worker!.dispatcher.maintenance();
      const [done] = await waitForFinal(c, [single]);
      expect(done).toMatchObject({
        status: 'unknown',
        error: expect.stringMatching(/No delivery receipt arrived by the deadline/),
      });
      expect((await row(single)).refunded).toBe(true);
      expect((await row(otp)).status).toBe('sent'); // its own deadline has not passed
    } finally {
      sim.setOptions({ receiptDelayMs: 20, loseReceiptsOnRestart: undefined });
    }
  });
});

describe('receipt states', () => {
  const receiptFor = async (id: string, stat: string, connection = 'simulator') => {
    const part = await server.ctx.db
      .selectFrom('message_parts')
      .select('smsc_key')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    await server.ctx.services.dlr.handleReceipt({
      connection,
      smscId: part.smsc_key,
      stat,
      err: '000',
      doneAt: null,
      raw: `id:${part.smsc_key} stat:${stat} err:000`,
    });
  };

  it('reads ACCEPTD as final (SMPP 3.4) and keeps an unknown stat word as "receipt unclear" until a clear one', async () => {
    const sim = server.worker!.simulator!;
    sim.setOptions({ receiptDelayMs: 3_600_000 });
    try {
      const a = await queue('+12125550705', 1);
      const b = await queue('+12125550706', 1);
      await until(async () => (await row(a)).status === 'sent' && (await row(b)).status === 'sent');
      await receiptFor(a, 'ACCEPTD');
      expect(await row(a)).toMatchObject({ status: 'delivered', smsc_stat: 'ACCEPTD' });

      await receiptFor(b, 'SUBMITTED_OK');
      expect(await row(b)).toMatchObject({
        status: 'sent',
        error: 'Receipt unclear: stat SUBMITTED_OK (err 000)',
      });
      await receiptFor(b, 'delivered'); // a long, lower-case spelling
      expect(await row(b)).toMatchObject({ status: 'delivered', smsc_stat: 'DELIVRD' });
    } finally {
      sim.setOptions({ receiptDelayMs: 20 });
    }
  });
});
