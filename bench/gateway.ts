/**
 * SMPP gateway benchmark: createSmppGateway against the SMSC simulator on loopback, delivery receipts on.
 * Keeps `concurrency` submits in flight, then waits for every receipt (acknowledged only after the
 * handler resolves, as in production).
 *
 *   npx tsx bench/gateway.ts [count=20000] [binds=1] [window=50] [concurrency=1000] [parts=1]
 */
import { startSmsc } from '@wren/smsc-simulator';
import pino from 'pino';
import { createSmppGateway } from '../apps/server/src/gateway/smpp-gateway';
import type { SubmitOutcome } from '../apps/server/src/gateway/sms-gateway';

const arg = (i: number, fallback: number): number => Number(process.argv[2 + i] ?? fallback);
const COUNT = arg(0, 20_000);
const BINDS = arg(1, 1);
const WINDOW = arg(2, 50);
const CONCURRENCY = arg(3, 1000);
const PARTS = arg(4, 1);

async function main(): Promise<void> {
  const sim = await startSmsc({ port: 0, receiptDelayMs: 0, maxStoredMessages: 10_000 });
  const gw = createSmppGateway({
    connections: [
      {
        name: 'bench',
        host: '127.0.0.1',
        port: sim.port,
        systemId: 'wren',
        password: 'wrenpass',
        binds: BINDS,
        window: WINDOW,
        prefixes: [],
      },
    ],
    logger: pino({ level: 'warn' }),
  });
  let receipts = 0;
  gw.onReceipt(async () => {
    receipts++;
  });
  await gw.start();

  const kinds: Record<SubmitOutcome['kind'], number> = { accepted: 0, retry: 0, rejected: 0, unknown: 0 };
  const parts = Array.from({ length: PARTS }, (_, i) => `Your code is ${100000 + i}. Bench message.`);
  let next = 0;
  const started = performance.now();
  async function lane(): Promise<void> {
    while (next < COUNT) {
      const i = next++;
      const out = await gw.submit({
        id: `b${i}`,
        from: 'Wren',
        to: `+4479${String(11_000_000 + i).padStart(8, '0')}`,
        encoding: 'GSM-7',
        parts,
      });
      kinds[out.kind]++;
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, COUNT) }, lane));
  const submitted = performance.now();
  const expected = kinds.accepted * PARTS;
  while (receipts < expected && performance.now() - submitted < 30_000) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const done = performance.now();
  await gw.stop();
  await sim.close();

  const secs = (ms: number): string => (ms / 1000).toFixed(2);
  const rate = (n: number, ms: number): string => Math.round((n * 1000) / ms).toLocaleString('en');
  console.log(`gateway bench: ${COUNT} messages × ${PARTS} part(s), ${BINDS} bind(s), window ${WINDOW}`);
  console.log(`outcomes: ${JSON.stringify(kinds)}`);
  console.log(
    `submit: ${secs(submitted - started)} s → ${rate(COUNT * PARTS, submitted - started)} submit_sm/s`,
  );
  console.log(
    `receipts: ${receipts}/${expected} after ${secs(done - started)} s → ${rate(receipts, done - started)} end-to-end/s`,
  );
  console.log(`simulator: ${JSON.stringify(sim.stats())}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
