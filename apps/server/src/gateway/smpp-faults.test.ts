import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connection, gateway, simulator, sleep, sms, until } from './smpp-test-kit';

afterEach(cleanup);

describe('throttling', () => {
  it('answers retry, pauses the bind and grows the pause while it repeats', async () => {
    const smsc = await simulator({ throttle: { rate: 1 } });
    const gw = await gateway([connection(smsc, { throttlePauseMs: 150 })]);
    const first = await gw.submit(sms());
    expect(first).toMatchObject({ kind: 'retry', retryAfterMs: 150 });
    expect((first as { reason: string }).reason).toMatch(/ESME_RTHROTTLED/);

    let t = Date.now();
    expect(await gw.submit(sms())).toMatchObject({ kind: 'retry', retryAfterMs: 300 });
    expect(Date.now() - t).toBeGreaterThanOrEqual(120); // waited out the first pause

    smsc.setOptions({ throttle: undefined });
    t = Date.now();
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
    expect(Date.now() - t).toBeGreaterThanOrEqual(250); // the second, longer pause
    expect(smsc.stats()).toMatchObject({ throttled: 2, submitted: 1 });
  });

  it('does not escalate the pause for submits that were already in flight', async () => {
    const smsc = await simulator({ throttle: { rate: 1 } });
    const gw = await gateway([connection(smsc, { throttlePauseMs: 150 })]);
    const outs = await Promise.all(Array.from({ length: 10 }, () => gw.submit(sms())));
    expect(outs.every((o) => o.kind === 'retry' && o.retryAfterMs <= 150 && o.retryAfterMs > 0)).toBe(true);
    expect(smsc.stats().throttled).toBe(10);
  });

  it('treats ESME_RMSGQFUL like throttling', async () => {
    const smsc = await simulator({ throttle: { queueFull: 1 } });
    const gw = await gateway([connection(smsc)]);
    const out = await gw.submit(sms());
    expect(out).toMatchObject({ kind: 'retry', retryAfterMs: 100 });
    expect((out as { reason: string }).reason).toMatch(/ESME_RMSGQFUL/);
  });

  it('retries a throttled later part internally without resending accepted parts', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { throttlePauseMs: 50 })]);
    smsc.once('submit', () => {
      smsc.setOptions({ throttle: { rate: 1 } });
      setTimeout(() => smsc.setOptions({ throttle: undefined }), 120);
    });
    const out = await gw.submit(sms({ parts: ['part one', 'part two'] }));
    expect(out).toMatchObject({ kind: 'accepted' });
    expect((out as { smscIds: string[] }).smscIds).toHaveLength(2);
    expect(smsc.stats()).toMatchObject({ submitted: 2, throttled: 2 });
  });

  it('gives unknown with the accepted ids when a later part stays throttled', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { throttlePauseMs: 20 })]);
    smsc.once('submit', () => smsc.setOptions({ throttle: { rate: 1 } }));
    const out = await gw.submit(sms({ parts: ['a', 'b', 'c'] }));
    expect(out).toMatchObject({ kind: 'unknown', connection: 'main' });
    const ids = (out as { smscIds: string[] }).smscIds;
    expect(ids).toHaveLength(1);
    expect(smsc.messages.get(ids[0]!)?.text).toBe('a');
    expect(smsc.stats()).toMatchObject({ submitted: 1, throttled: 4 });
  });
});

describe('connection faults', () => {
  it('reconnects after the SMSC drops the connection, and later submits succeed', async () => {
    const smsc = await simulator({ dropConnection: { afterSubmits: 2 } });
    const gw = await gateway([connection(smsc)]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' }); // answered, then dropped
    smsc.setOptions({ dropConnection: undefined });
    await until(() => gw.status()[0]?.bound === 0, 1000, 'drop noticed');
    // Submitted while down: waits for the reconnect instead of failing.
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
    expect(gw.status()[0]).toMatchObject({ bound: 1, inFlight: 0 });
    expect(smsc.stats()).toMatchObject({ connectionsDropped: 1, binds: 2, submitted: 3 });
  });

  it('gives unknown when the connection drops with a submit unanswered', async () => {
    const smsc = await simulator({ slowResponseMs: 500 });
    const gw = await gateway([connection(smsc)]);
    smsc.once('submit', () => smsc.dropAll());
    const out = await gw.submit(sms({ parts: ['one', 'two'] }));
    expect(out).toMatchObject({ kind: 'unknown', smscIds: [] });
    expect((out as { reason: string }).reason).toMatch(
      /connection closed before submit_sm_resp \(part 1\/2\)/,
    );
    expect(smsc.stats().submitReceived).toBe(1); // never resent
  });

  it('gives unknown on a half-open link, then enquire_link kills and re-creates the bind', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { responseTimeoutMs: 300, enquireLinkSeconds: 0.2 })]);
    smsc.setOptions({ halfOpen: true });
    const t = Date.now();
    const out = await gw.submit(sms());
    expect(out).toMatchObject({ kind: 'unknown', smscIds: [] });
    expect((out as { reason: string }).reason).toMatch(/no submit_sm_resp within 300 ms/);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
    await until(() => gw.status()[0]?.bound === 0, 2000, 'dead link detected');
    expect(smsc.stats().submitReceived).toBe(0); // half-open: read, never processed
    expect(smsc.stats().ignoredPdus).toBeGreaterThanOrEqual(2); // the submit_sm and the enquire_link
    smsc.setOptions({ halfOpen: false });
    await until(() => gw.status()[0]?.bound === 1, 3000, 'rebound');
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
  });

  it('never binds with bad credentials and answers retry quickly', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { password: 'wrong', bindWaitMs: 300 })]);
    expect(gw.status()).toMatchObject([{ name: 'main', binds: 1, bound: 0, inFlight: 0, flaps: 0 }]);
    const t = Date.now();
    const out = await gw.submit(sms());
    expect(out).toMatchObject({ kind: 'retry' });
    expect((out as { reason: string }).reason).toMatch(/no bound SMPP session/);
    expect(Date.now() - t).toBeLessThan(1000);
    await sleep(150);
    expect(smsc.stats()).toMatchObject({ binds: 0, submitReceived: 0 });
    expect(smsc.stats().bindFailures).toBeGreaterThanOrEqual(2); // it keeps trying, with backoff
  });

  it('rebinds after the SMSC unbinds', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
    const closing = smsc.close(); // unbinds every session; we must answer unbind_resp
    const t = Date.now();
    await closing;
    expect(Date.now() - t).toBeLessThan(150); // answered, not the simulator's 200 ms grace
    await until(() => gw.status()[0]?.bound === 0, 1000, 'unbound');
  });
});

describe('stop', () => {
  it('resolves written submits as unknown and waiting ones as retry', async () => {
    const smsc = await simulator({ slowResponseMs: 2000 });
    const gw = await gateway([connection(smsc, { window: 1, responseTimeoutMs: 5000 })]);
    const written = gw.submit(sms());
    const waiting = gw.submit(sms());
    await until(() => smsc.stats().submitReceived === 1, 1000, 'first submit');
    const t = Date.now();
    await gw.stop();
    expect(Date.now() - t).toBeLessThan(1500);
    expect(await written).toMatchObject({ kind: 'unknown' });
    expect(await waiting).toMatchObject({ kind: 'retry', reason: 'gateway stopped' });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'retry' });
    expect(gw.status()[0]).toMatchObject({ bound: 0, inFlight: 0 });
  });

  it('unbinds gracefully', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { binds: 3 })]);
    expect(smsc.stats().boundSessions).toBe(3);
    await gw.stop();
    await until(() => smsc.stats().activeSessions === 0, 1000, 'sessions closed');
    expect(smsc.stats().unbinds).toBe(3);
  });
});
