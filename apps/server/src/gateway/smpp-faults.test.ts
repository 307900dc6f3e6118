import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  advanceUntil,
  cleanup,
  connection,
  fakeTime,
  gateway,
  ioWait,
  simulator,
  sms,
  until,
} from './smpp-test-kit';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

/** A promise with a synchronous look at whether it settled. */
function watch<T>(p: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  return { promise: p, settled: () => done };
}

describe('throttling', () => {
  it('answers retry, pauses the bind and grows the pause while it repeats', async () => {
    const clock = fakeTime({ date: false }); // the pause runs on the connection's clock
    const smsc = await simulator({ throttle: { rate: 1 } });
    const gw = await gateway([connection(smsc, { throttlePauseMs: 150, clock })]);
    const first = await gw.submit(sms());
    expect(first).toMatchObject({ kind: 'retry', retryAfterMs: 150 });
    expect((first as { reason: string }).reason).toMatch(/ESME_RTHROTTLED/);

    // The bind is paused for 150 ms of (faked) time: the next submit waits it out, unsent.
    const second = watch(gw.submit(sms()));
    await vi.advanceTimersByTimeAsync(149);
    await ioWait(20);
    expect(second.settled()).toBe(false);
    expect(smsc.stats().submitReceived).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(second.settled, 1000, 'second answered');
    expect(await second.promise).toMatchObject({ kind: 'retry', retryAfterMs: 300 });
    expect(smsc.stats().submitReceived).toBe(2);

    // Throttled again after a pause: the next pause is twice as long.
    smsc.setOptions({ throttle: undefined });
    const third = watch(gw.submit(sms()));
    await vi.advanceTimersByTimeAsync(299);
    await ioWait(20);
    expect(third.settled()).toBe(false);
    expect(smsc.stats().submitReceived).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(third.settled, 1000, 'third answered');
    expect(await third.promise).toMatchObject({ kind: 'accepted' });
    expect(smsc.stats()).toMatchObject({ throttled: 2, submitted: 1 });
  });

  it('does not escalate the pause for submits that were already in flight', async () => {
    const smsc = await simulator({ throttle: { rate: 1 } });
    const gw = await gateway([connection(smsc, { throttlePauseMs: 150 })]);
    const outs = await Promise.all(Array.from({ length: 10 }, () => gw.submit(sms())));
    expect(outs.every((o) => o.kind === 'retry' && o.retryAfterMs <= 150 && o.retryAfterMs > 0)).toBe(true);
    expect(smsc.stats().throttled).toBe(10);
    // The console's per-minute figures count each throttle, and no other refusal.
    expect(gw.status()[0]).toMatchObject({ throttlesPerMinute: 10, submitErrorsPerMinute: 0 });
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
    const clock = fakeTime();
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { responseTimeoutMs: 300, enquireLinkSeconds: 0.2, clock })]);
    smsc.setOptions({ halfOpen: true });
    const sent = watch(gw.submit(sms()));
    await until(() => smsc.stats().ignoredPdus === 1, 2000, 'submit_sm read');
    // Unanswered for less than responseTimeoutMs: still waiting.
    await vi.advanceTimersByTimeAsync(299);
    await ioWait(20);
    expect(sent.settled()).toBe(false);
    // Given up on within one response sweep (a fifth of the timeout) after the deadline.
    await vi.advanceTimersByTimeAsync(61);
    await until(sent.settled, 1000, 'timed out');
    const out = await sent.promise;
    expect(out).toMatchObject({ kind: 'unknown', smscIds: [] });
    expect((out as { reason: string }).reason).toMatch(/no submit_sm_resp within 300 ms/);
    await advanceUntil(() => gw.status()[0]?.bound === 0, { maxMs: 1000, what: 'dead link detected' });
    expect(smsc.stats().submitReceived).toBe(0); // half-open: read, never processed
    expect(smsc.stats().ignoredPdus).toBeGreaterThanOrEqual(2); // the submit_sm and the enquire_link
    smsc.setOptions({ halfOpen: false });
    await advanceUntil(() => gw.status()[0]?.bound === 1, { maxMs: 1000, what: 'rebound' });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
  });

  it('never binds with bad credentials and answers retry quickly', async () => {
    const clock = fakeTime();
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { password: 'wrong', bindWaitMs: 300, clock })]);
    expect(gw.status()).toMatchObject([{ name: 'main', binds: 1, bound: 0, inFlight: 0, flaps: 0 }]);
    const sent = watch(gw.submit(sms()));
    // Waits bindWaitMs for a bind, not the 30 s queue limit...
    await vi.advanceTimersByTimeAsync(299);
    await ioWait(20);
    expect(sent.settled()).toBe(false);
    // ...and answers within one waiter sweep (a quarter of bindWaitMs) after it.
    await vi.advanceTimersByTimeAsync(75);
    await until(sent.settled, 1000, 'retry answered');
    const out = await sent.promise;
    expect(out).toMatchObject({ kind: 'retry' });
    expect((out as { reason: string }).reason).toMatch(/no bound SMPP session/);
    // It keeps trying, with backoff (50 ms base, 200 ms cap here).
    await advanceUntil(() => smsc.stats().bindFailures >= 3, { maxMs: 1000, what: 'rebinds' });
    expect(smsc.stats()).toMatchObject({ binds: 0, submitReceived: 0 });
  });

  it('rebinds after the SMSC unbinds', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
    // Unbinds every session; we must answer unbind_resp. Faked time stands still, so the simulator's
    // 200 ms grace (after which it closes anyway) never runs out: only our answer can close it.
    fakeTime();
    const closing = watch(smsc.close());
    await until(closing.settled, 2000, 'unbind answered');
    await until(() => gw.status()[0]?.bound === 0, 1000, 'unbound');
  });
});

describe('stop', () => {
  it('resolves written submits as unknown and waiting ones as retry', async () => {
    const clock = fakeTime();
    const smsc = await simulator({ slowResponseMs: 2000 });
    const gw = await gateway([connection(smsc, { window: 1, responseTimeoutMs: 5000, clock })]);
    const written = gw.submit(sms());
    const waiting = gw.submit(sms());
    await until(() => smsc.stats().submitReceived === 1, 1000, 'first submit');
    const stopping = watch(gw.stop());
    // Drains for drainMs (200 here), then unbinds: long before the 2 s answer or the 5 s timeout.
    const took = await advanceUntil(stopping.settled, { maxMs: 1500, what: 'stopped' });
    expect(took).toBeGreaterThanOrEqual(200);
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
