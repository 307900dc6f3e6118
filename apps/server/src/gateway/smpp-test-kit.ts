// Shared set-up for the gateway tests that run against the real SMSC simulator (test-only module).
import { startSmsc, type SmscHandle, type SmscOptions } from '@wren/smsc-simulator';
import pino from 'pino';
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

export async function until(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
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
