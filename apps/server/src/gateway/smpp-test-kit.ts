// Shared set-up for the gateway tests that run against the real SMSC simulator (test-only module).
import { startSmsc, type SmscHandle, type SmscOptions } from '@wren/smsc-simulator';
import pino from 'pino';
import { vi } from 'vitest';
import type { Clock } from '../platform/clock';
import { createSmppGateway, type SmppGatewayOptions } from './smpp-gateway';
import type { SmppConnectionConfig } from './smpp-config';
import type { OutboundSms, SmsGateway } from './sms-gateway';

export const silentLogger = pino({ level: 'silent' });

const smscs: SmscHandle[] = [];
const gateways: SmsGateway[] = [];

export async function simulator(opts: SmscOptions = {}): Promise<SmscHandle> {
  const smsc = await startSmsc({ port: 0, receiptDelayMs: 5, onError: (e) => console.error(e), ...opts });
  smscs.push(smsc);
  return smsc;
}

/** A connection to `smsc` with test-friendly (short) timings. */
export function connection(smsc: SmscHandle, over: Partial<SmppConnectionConfig> = {}): SmppConnectionConfig {
  return {
    name: 'main',
    host: '127.0.0.1',
    port: smsc.port,
    systemId: 'wren',
    password: 'wrenpass',
    binds: 1,
    window: 50,
    prefixes: [],
    responseTimeoutMs: 1000,
    reconnectBaseMs: 50,
    reconnectMaxMs: 200,
    bindWaitMs: 1000,
    throttlePauseMs: 100,
    ...over,
  };
}

export async function gateway(
  connections: SmppConnectionConfig[],
  over: Partial<SmppGatewayOptions> = {},
): Promise<SmsGateway> {
  const gw = createSmppGateway({ connections, logger: silentLogger, drainMs: 200, ...over });
  gateways.push(gw);
  await gw.start();
  return gw;
}

let seq = 0;
export function sms(over: Partial<OutboundSms> = {}): OutboundSms {
  return { id: `m${++seq}`, from: 'Wren', to: '+447911123456', encoding: 'GSM-7', parts: ['hello'], ...over };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// The real timer, kept before any test fakes timers: waiting for socket I/O takes wall time.
const realSetTimeout = globalThis.setTimeout;

/** Lets sockets work for `ms` of wall time; faked timers and a faked Date stand still meanwhile. */
export const ioWait = (ms = 0): Promise<void> => new Promise((r) => realSetTimeout(r, ms));

/**
 * Waits (in wall time, for socket I/O) until `predicate` holds. Under fake timers the faked clock
 * stands still meanwhile, so what happens is pinned to the fake time the test moved to.
 */
export async function until(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await ioWait(5);
  }
}

/**
 * Fakes timers, and `Date` unless `date: false`, for the gateway and the simulator alike (both run in
 * this process); sockets stay real. Tests move time with `vi.advanceTimersByTimeAsync` or
 * {@link advanceUntil}; the returned clock reads the faked time: pass it as a connection's `clock`
 * (with `date: false` the gateway sees the faked time only through it). Restore with
 * `vi.useRealTimers()` before {@link cleanup}; the clock then reads the machine's time.
 */
export function fakeTime({ date = true }: { date?: boolean } = {}): Clock {
  vi.useFakeTimers({
    toFake: [
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      ...(date ? ['Date' as const] : []),
    ],
  });
  // Once the test restores real timers (cleanup), the machine's time.
  return { now: () => vi.getMockedSystemTime() ?? new Date() };
}

/**
 * Moves faked time forward in steps of `stepMs`, letting sockets work after each step, until
 * `predicate` holds; fails once `maxMs` of faked time went by without it. Returns the faked ms moved.
 */
export async function advanceUntil(
  predicate: () => boolean,
  { stepMs = 10, maxMs = 5000, what = 'condition' } = {},
): Promise<number> {
  let moved = 0;
  for (;;) {
    await ioWait(2);
    if (predicate()) return moved;
    if (moved >= maxMs) throw new Error(`${what}: not within ${maxMs} ms of faked time`);
    await vi.advanceTimersByTimeAsync(stepMs);
    moved += stepMs;
  }
}

/** Stop every gateway and simulator created by the current test. */
export async function cleanup(): Promise<void> {
  await Promise.all(gateways.splice(0).map((g) => g.stop()));
  await Promise.all(smscs.splice(0).map((s) => s.close()));
}

export function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
