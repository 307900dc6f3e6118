import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage, waitForFinal } from '../../../test/messaging';

/**
 * The receipt side of issue #18 through the real gateway and the simulator's interoperability modes:
 * ACCEPTD receipts (final or interim), and an SMSC restart that forgets the submits it had not
 * answered. Before, ACCEPTD left messages in `sent` for good and every unanswered submit was failed.
 */
let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const base = {
  SIMULATOR_DELAY_MS: '20',
  SIMULATOR_MIX: 'DELIVRD=100',
  SMSC_RESPONSE_TIMEOUT_MS: '1000',
  SMSC_ENQUIRE_LINK_SECONDS: '0.5',
  SMSC_RECONNECT_BASE_MS: '50',
};

async function until(check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const row = (id: string) =>
  server!.ctx.db
    .selectFrom('messages')
    .select(['status', 'smsc_stat', 'error', 'refunded'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('ACCEPTD receipts', () => {
  it('end the message by default (SMPP 3.4: ACCEPTED is final)', async () => {
    server = await startServer(base, { worker: true });
    server.worker!.simulator!.setOptions({ acceptdReceipts: 'final' });
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sms/single', { recipients: ['+12125550801'], text: 'Accepted' });
    const [done] = await waitForFinal(c, [res.body.messages[0].id]);
    expect(done.status).toBe('delivered');
    expect((await row(done.id)).smsc_stat).toBe('ACCEPTD');
  });

  it('wait for the real final state where the connection treats them as interim', async () => {
    server = await startServer({ ...base, SMSC_ACCEPTD: 'interim' }, { worker: true });
    server.worker!.simulator!.setOptions({ acceptdReceipts: 'interim', statMix: { UNDELIV: 100 } });
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sms/single', { recipients: ['+12125550802'], text: 'Interim' });
    const [done] = await waitForFinal(c, [res.body.messages[0].id]);
    expect(done.status).toBe('undelivered');
    // The ACCEPTD may arrive before its part is stored and wait a round (WAIT_ROUND_MS) while the
    // final receipt ends the message, so the history can gain it just after the final state.
    const interim = async () =>
      ((await c.get(`/api/sms/log/${done.id}`)).body.events as { detail: string }[]).some((e) =>
        /ACCEPTD .* — interim/.test(e.detail),
      );
    await until(interim, 10_000);
    expect((await row(done.id)).smsc_stat).toBe('UNDELIV');
  });
});

describe('an ACCEPTD receipt that contradicts itself (opensmppbox: an expired message is stat:ACCEPTD, message_state 6, dlvrd:000 err:001)', () => {
  const contradicted = async (acceptd: 'final' | 'interim', recipient: string) => {
    server = await startServer(
      { ...base, SMSC_ACCEPTD: acceptd, REFUND_STATUSES: 'unknown' },
      { worker: true },
    );
    server.worker!.simulator!.setOptions({ acceptdReceipts: 'contradictory' });
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sms/single', { recipients: [recipient], text: 'Expired' });
    const [done] = await waitForFinal(c, [res.body.messages[0].id]);
    const part = await server.ctx.db
      .selectFrom('message_parts')
      .select(['stat', 'err', 'raw'])
      .where('message_id', '=', done.id)
      .executeTakeFirstOrThrow();
    return { done, part, stored: await row(done.id) };
  };
  const error =
    'Receipt contradicts itself: ACCEPTD with err:001; not counted as delivered, the outcome is unknown';

  it('is not delivered where ACCEPTD is final (the default): it ends unknown, saying what arrived, and keeps the raw text', async () => {
    const { done, part, stored } = await contradicted('final', '+12125550811');
    expect(done).toMatchObject({ status: 'unknown', error });
    expect(stored).toMatchObject({ smsc_stat: 'ACCEPTD', refunded: true });
    expect(part).toMatchObject({ stat: 'ACCEPTD', err: '001' });
    expect(part.raw).toMatch(/stat:ACCEPTD err:001/);
    expect(part.raw).toMatch(/dlvrd:000/);
    expect(part.raw).toMatch(/"message_state":6/);
  });

  it('ends the message where ACCEPTD is interim, instead of waiting for a receipt that never comes', async () => {
    const { done, part } = await contradicted('interim', '+12125550812');
    expect(done).toMatchObject({ status: 'unknown', error });
    expect(part).toMatchObject({ stat: 'ACCEPTD', err: '001' });
  });
});

describe('the receipt deadline after an interim receipt', () => {
  it('ends the message as unknown with an error that names the last receipt, not "no receipt arrived"', async () => {
    server = await startServer({ ...base, SMSC_ACCEPTD: 'interim' }, { worker: true });
    const sim = server.worker!.simulator!;
    // ACCEPTD (an interim note on this connection) arrives; the SMSC restarts before the final one.
    sim.setOptions({ acceptdReceipts: 'interim', receiptDelayMs: 1_000, loseReceiptsOnRestart: true });
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sms/single', { recipients: ['+12125550813'], text: 'Interim only' });
    const id = res.body.messages[0].id as string;
    const history = async () =>
      (await c.get(`/api/sms/log/${id}`)).body.events.map((e: { detail: string }) => e.detail) as string[];
    await until(async () => (await history()).some((d) => /ACCEPTD .* — interim/.test(d)));
    await sim.restart({ downMs: 50 });
    expect(sim.stats().receiptsLost).toBeGreaterThanOrEqual(1);
    expect((await row(id)).status).toBe('sent');

    // Time passes: the deadline is behind us.
    await server.ctx.db
      .updateTable('messages')
      .set({ receipt_due_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    await server.ctx.db
      .updateTable('message_parts')
      .set({ created_at: new Date(Date.now() - 3 * 86_400_000) })
      .where('message_id', '=', id)
      .execute();
    await server.worker!.dispatcher.maintenance();
    const [done] = await waitForFinal(c, [id]);
    expect(done.status).toBe('unknown');
    expect(done.error).toMatch(
      /^No final delivery receipt arrived by the deadline of its connection; the last receipt \(\d{4}-\d\d-\d\dT[\d:.]+Z\) was Part 1: ACCEPTD \(err 000\) — interim; the outcome is unknown$/,
    );
  });
});

describe('an SMSC restart with unanswered submits', () => {
  it('resends the OTP it never received and fails the single SMS, refunding it', async () => {
    server = await startServer({ ...base, TRIAL_BALANCE_MINOR: '100' }, { worker: true });
    const sim = server.worker!.simulator!;
    const accountId = (await server.client().register()).user.accountId;
    // The SMSC holds its answers until two submits wait, then restarts and forgets both.
    sim.setOptions({ restartWithUnanswered: 2 });
    const otp = await insertTestMessage(server, {
      accountId,
      status: 'queued',
      priority: 0,
      recipient: '+12125550803',
    });
    const single = await insertTestMessage(server, {
      accountId,
      status: 'queued',
      priority: 1,
      recipient: '+12125550804',
    });
    server.ctx.events.publish('messages.queued', {});
    await until(
      async () => (await row(otp)).status === 'delivered' && (await row(single)).status === 'failed',
    );
    expect(await row(single)).toMatchObject({
      refunded: true,
      error: expect.stringMatching(/No answer from the SMSC/),
    });
    // The OTP reached the handset once: the first submit was lost with the restart.
    expect([...sim.messages.values()].filter((m) => m.dest === '12125550803')).toHaveLength(1);
    expect([...sim.messages.values()].filter((m) => m.dest === '12125550804')).toHaveLength(0);
  });
});
