import type { SmscOptions } from '@wren/smsc-simulator';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConnection } from './smpp-config';
import { cleanup, connection, gateway, simulator, sleep, sms, until } from './smpp-test-kit';
import type { DeliveryReceipt, MobileOriginated } from './sms-gateway';

// Issue #18: bind modes (trx, tx + rx) and flapping binds, through the real gateway and simulator.

afterEach(cleanup);

/** A logger that keeps its records (JSON objects) for assertions. */
function capturingLogger() {
  const records: { level: number; msg: string; time: number; [k: string]: unknown }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { logger, records, warnings: () => records.filter((r) => r.level === 40) };
}

describe('bind modes', () => {
  it.each(['trx', 'tx+rx'] as const)('%s: submits, receipts and MO flow', async (bindMode) => {
    const smsc = await simulator({
      bindModes: bindMode === 'trx' ? ['transceiver'] : ['transmitter', 'receiver'],
      statMix: { UNDELIV: 1 },
    });
    const modes: string[] = [];
    smsc.on('bind', (e) => modes.push(`${e.mode}:${e.status}`));
    const gw = await gateway([connection(smsc, { bindMode, binds: 2 })]);
    const receipts: DeliveryReceipt[] = [];
    const mos: MobileOriginated[] = [];
    gw.onReceipt(async (r) => void receipts.push(r));
    gw.onMo(async (m) => void mos.push(m));

    const outs = await Promise.all(Array.from({ length: 10 }, () => gw.submit(sms())));
    expect(outs.map((o) => o.kind)).toEqual(Array(10).fill('accepted'));
    await until(() => receipts.length === 10, 3000, 'receipts');
    expect(receipts[0]).toMatchObject({ connection: 'main', stat: 'UNDELIV' });
    expect((await smsc.sendMo({ from: '447911123456', to: 'WREN', text: 'STOP' })).statuses).toEqual([0]);
    expect(mos).toMatchObject([{ from: '+447911123456', text: 'STOP' }]);

    // Every bind the simulator saw was of the mode's kind and accepted; no submit went to a receiver.
    const expected = bindMode === 'trx' ? ['transceiver:0'] : ['transmitter:0', 'receiver:0'];
    expect(modes.sort()).toEqual([...expected, ...expected].sort());
    await until(() => smsc.stats().receiptsAcked === 10, 1000, 'receipt acks');
    expect(smsc.stats()).toMatchObject({ rejected: 0, submitted: 10, receiptsNacked: 0, bindFailures: 0 });
    const status = gw.status()[0]!;
    expect(status).toMatchObject({ bindMode, binds: 2, bound: 2, flaps: 0, flapping: false });
    expect(status.sessions.map((s) => [s.bind, s.role, s.state])).toEqual(
      bindMode === 'trx'
        ? [
            [0, 'transceiver', 'bound'],
            [1, 'transceiver', 'bound'],
          ]
        : [
            [0, 'transmitter', 'bound'],
            [0, 'receiver', 'bound'],
            [1, 'transmitter', 'bound'],
            [1, 'receiver', 'bound'],
          ],
    );
  });

  it('tx+rx: receipts for submits made while the receiver is down come once it rebinds', async () => {
    const smsc = await simulator({ bindModes: ['transmitter', 'receiver'] });
    const gw = await gateway([connection(smsc, { bindMode: 'tx+rx' })]);
    const receipts: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => void receipts.push(r));
    smsc.setOptions({ receiptDelayMs: 100 });
    const out = await gw.submit(sms());
    expect(out.kind).toBe('accepted');
    await smsc.restart({ downMs: 150 }); // both sessions drop; the receipt is held
    await until(() => gw.status()[0]!.sessions.every((s) => s.state === 'bound'), 3000, 'rebound');
    await until(() => receipts.length === 1, 2000, 'held receipt');
    expect(receipts[0]!.smscId).toBe((out as { smscIds: string[] }).smscIds[0]);
  });

  it('a trx connection never binds to an SMSC that only takes transmitters and receivers', async () => {
    const smsc = await simulator({ bindModes: ['transmitter', 'receiver'] });
    const gw = await gateway([connection(smsc, { bindWaitMs: 200 })]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'retry' });
    expect(gw.status()[0]).toMatchObject({ bound: 0, lastError: expect.stringMatching(/ESME_RINVCMDID/) });
    expect(smsc.stats()).toMatchObject({ binds: 0, submitReceived: 0 });
  });

  it('rejects an unknown bind mode', () => {
    const base = { name: 'x', host: 'h', port: 1, systemId: 's', password: 'p' };
    expect(resolveConnection(base).bindMode).toBe('trx');
    expect(() => resolveConnection({ ...base, bindMode: 'rx' as 'trx' })).toThrow(
      /bindMode must be trx or tx\+rx/,
    );
  });
});

describe('flapping binds', () => {
  // The opensmppbox case of issue #18: one session per system_id/system_type, and two binds.
  const flapping: SmscOptions = { oneSessionPerSystemType: true };
  // These tests study the flapping itself, so the connection never keeps one bind (keepOneBindAfter
  // 0); how it does is in smpp-multiple-login.test.ts.
  const timing = { binds: 2, reconnectBaseMs: 40, reconnectMaxMs: 800, flapSeconds: 5, keepOneBindAfter: 0 };

  async function bindsIn(ms: number, over: Parameters<typeof connection>[1], logger = capturingLogger()) {
    const smsc = await simulator(flapping);
    const gw = await gateway([connection(smsc, { ...timing, ...over })], { logger: logger.logger });
    const t = Date.now();
    const at: number[] = [];
    smsc.on('bind', () => at.push(Date.now() - t));
    await sleep(ms);
    return { smsc, gw, at, logger };
  }

  it('backs off while the SMSC keeps closing fresh sessions (the old reset-at-bind rebinds at full speed)', async () => {
    // flapSeconds 0 is the old behaviour: the backoff resets as soon as a bind succeeds.
    const old = await bindsIn(1500, { flapSeconds: 0 });
    await cleanup();
    const now = await bindsIn(1500, {});
    // Old: a rebind every ~20-40 ms per bind, for ever. New: 20-40, 40-80, 80-160, ... up to 800 ms.
    expect(old.at.length).toBeGreaterThan(24); // ~43 when measured
    expect(now.at.length).toBeLessThanOrEqual(14); // ~9 when measured
    expect(old.at.length).toBeGreaterThan(2 * now.at.length);
    const gaps = now.at.slice(1).map((t, i) => t - now.at[i]!);
    expect(Math.max(...gaps.slice(-3))).toBeGreaterThanOrEqual(150);

    const status = now.gw.status()[0]!;
    expect(status.flapping).toBe(true);
    expect(status.flaps).toBeGreaterThanOrEqual(now.at.length - 3);
    expect(status.lastError).toMatch(/closed by the SMSC \d+ ms after binding/);
    expect(status.sessions.map((s) => s.recentFlaps > 0)).toEqual([true, true]);
    expect(status.sessions[0]!.lastBoundAt).toBeInstanceOf(Date);
    expect(status.sessions[0]!.lastClosedAt).toBeInstanceOf(Date);
  });

  it('logs ONE warning naming the likely causes after flapWarnAfter flaps', async () => {
    const { logger, warnings } = capturingLogger();
    const { gw } = await bindsIn(1500, { flapWarnAfter: 3 }, { logger, records: [], warnings });
    const flapWarnings = warnings().filter((r) => /is flapping/.test(r.msg));
    expect(flapWarnings).toHaveLength(1);
    const w = flapWarnings[0]!;
    expect(w.msg).toMatch(/one session per system_id\/system_type/);
    expect(w.msg).toMatch(/each new bind made the SMSC close an older session/);
    expect(w.msg).toMatch(/lower SMSC_BINDS/);
    expect(w).toMatchObject({ connection: 'main', binds: 2, bindMode: 'trx', systemId: 'wren' });
    expect(w.recentFlaps).toBeGreaterThanOrEqual(3);
    expect(gw.status()[0]!.flaps).toBeGreaterThan(3); // it went on flapping, still one warning
  });

  it('repeats the warning at most every flapWarnIntervalSeconds', async () => {
    const log = capturingLogger();
    await bindsIn(1800, { flapWarnIntervalSeconds: 0.5, reconnectMaxMs: 100 }, log);
    const times = log
      .warnings()
      .filter((r) => /is flapping/.test(r.msg))
      .map((r) => r.time);
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(500);
  });

  it('settles once sessions stay up: the flap run resets, the total stays', async () => {
    const { smsc, gw } = await bindsIn(600, { flapSeconds: 0.3, reconnectMaxMs: 100 });
    expect(gw.status()[0]!.flapping).toBe(true);
    smsc.setOptions({ oneSessionPerSystemType: false });
    await until(() => gw.status()[0]!.bound === 2, 2000, 'both bound');
    await sleep(400);
    const status = gw.status()[0]!;
    expect(status).toMatchObject({ bound: 2, flapping: false });
    expect(status.flaps).toBeGreaterThan(0);
    expect(status.sessions.map((s) => s.recentFlaps)).toEqual([0, 0]);
  });

  it('a session that lived past flapSeconds is no flap, and reconnects at the base delay', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { reconnectBaseMs: 40, flapSeconds: 0.2 })]);
    await sleep(250);
    smsc.dropAll();
    await until(() => gw.status()[0]!.bound === 0, 1000, 'down');
    const t = Date.now();
    await until(() => gw.status()[0]!.bound === 1, 1000, 'rebound');
    expect(Date.now() - t).toBeLessThan(150);
    expect(gw.status()[0]).toMatchObject({ flaps: 0, flapping: false });
  });

  it('tx+rx pairs flap too when the SMSC allows one session per system_type and there are two binds', async () => {
    const { gw } = await bindsIn(1200, { bindMode: 'tx+rx' });
    const status = gw.status()[0]!;
    expect(status.flapping).toBe(true);
    expect(new Set(status.sessions.filter((s) => s.flaps > 0).map((s) => s.role))).toEqual(
      new Set(['transmitter', 'receiver']),
    );
  });
});

describe('simulator modes through the gateway', () => {
  it('acceptdReceipts: the gateway hands over ACCEPTD receipts with message_state 6', async () => {
    const smsc = await simulator({ acceptdReceipts: 'interim', statMix: { DELIVRD: 1 } });
    const gw = await gateway([connection(smsc)]);
    const got: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => void got.push(r));
    expect((await gw.submit(sms())).kind).toBe('accepted');
    await until(() => got.length === 2, 2000, 'two receipts');
    expect(got.map((r) => r.stat)).toEqual(['ACCEPTD', 'DELIVRD']);
    expect(got[0]!.raw).toMatch(/"message_state":6/);
  });

  it('loseReceiptsOnRestart: the gateway rebinds, and the receipts of earlier submits never come', async () => {
    const smsc = await simulator({ loseReceiptsOnRestart: true, receiptDelayMs: 150 });
    const gw = await gateway([connection(smsc)]);
    const got: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => void got.push(r));
    const outs = await Promise.all([gw.submit(sms()), gw.submit(sms())]);
    expect(outs.map((o) => o.kind)).toEqual(['accepted', 'accepted']);
    await smsc.restart();
    await until(() => gw.status()[0]!.bound === 1 && smsc.stats().binds === 2, 2000, 'rebound');
    await sleep(300);
    expect(got).toEqual([]);
    expect(smsc.stats().receiptsLost).toBe(2);
  });

  it('restartWithUnanswered: unanswered submits end unknown, were never received, and a resend is delivered once', async () => {
    const smsc = await simulator({ restartWithUnanswered: 3 });
    const gw = await gateway([connection(smsc, { window: 10 })]);
    const got: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => void got.push(r));
    const messages = [sms(), sms(), sms()];
    const outs = await Promise.all(messages.map((m) => gw.submit(m)));
    expect(outs.map((o) => o.kind)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(outs[0]).toMatchObject({
      reason: expect.stringMatching(/connection closed before submit_sm_resp/),
    });
    expect(smsc.messages.size).toBe(0); // the far side has none of them
    // Sent again (what an at-least-once policy does): each is received and receipted exactly once.
    const again = await Promise.all(messages.map((m) => gw.submit(m)));
    expect(again.map((o) => o.kind)).toEqual(['accepted', 'accepted', 'accepted']);
    await until(() => got.length === 3, 2000, 'receipts');
    expect(smsc.messages.size).toBe(3);
    expect(smsc.stats()).toMatchObject({ unansweredForgotten: 3, restarts: 1 });
  });
});
