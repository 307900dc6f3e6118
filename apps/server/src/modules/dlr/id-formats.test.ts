import { startSmsc, type IdFormatPreset, type SmscHandle } from '@wren/smsc-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { canonicalId } from '../../gateway/message-id';
import { statusOfStat } from './receipt-status';

/**
 * Real SMSCs write message ids in many ways. For each way, 20,000 messages go through the HTTP API,
 * the dispatcher and a real SMPP bind to the simulator, and every one must end in the final status
 * the SMSC drew for THAT message (a crossed receipt would give a message another one's outcome).
 * Before the rewrite, sequential decimal ids left thousands of messages in `sent` for good.
 */
const MESSAGES = Number(process.env.ID_FORMAT_TEST_MESSAGES ?? 20_000);
const PER_REQUEST = 100;
const CONCURRENCY = 4;

let smsc: SmscHandle | null = null;
let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  await smsc?.close();
  server = null;
  smsc = null;
});

const recipients = (start: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const k = start + i;
    return `+1${['212', '415', '646'][k % 3]}555${String(Math.floor(k / 3)).padStart(4, '0')}`;
  });

const PRESETS: IdFormatPreset[] = [
  'seq-dec',
  'seq-hex',
  'random-hex',
  'uuid',
  'zero-padded',
  'hex-resp-dec-receipt',
];

describe('every id format an SMSC uses', () => {
  it.each(PRESETS)(
    `${MESSAGES.toLocaleString('en')} messages with %s ids each reach their own final status`,
    async (idFormat) => {
      smsc = await startSmsc({
        port: 0,
        host: '127.0.0.1',
        idFormat,
        receiptDelayMs: 5,
        statMix: { DELIVRD: 70, UNDELIV: 20, EXPIRED: 6, REJECTD: 4 },
        credentials: [{ systemId: 'wren', password: 'wrenpass' }],
        maxStoredMessages: MESSAGES * 2,
        onError: () => undefined,
      });
      server = await startServer(
        {
          SMSC_HOST: '127.0.0.1',
          SMSC_PORT: String(smsc.port),
          SMSC_SYSTEM_ID: 'wren',
          SMSC_PASSWORD: 'wrenpass',
          SMSC_BINDS: '1',
          SMSC_WINDOW: '100',
          TRIAL_BALANCE_MINOR: String(MESSAGES * 10),
        },
        { worker: true },
      );
      const c = server.client();
      const { user } = await c.register();
      const requests = MESSAGES / PER_REQUEST;
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < requests) {
            const k = next++;
            const res = await c.post('/api/sms/single', {
              recipients: recipients(k * PER_REQUEST, PER_REQUEST),
              text: `Format ${idFormat} ${k}`,
            });
            expect(res.status).toBe(202);
          }
        }),
      );

      const db = server.ctx.db;
      const deadline = Date.now() + Number(process.env.ID_FORMAT_TEST_WAIT_MS ?? 180_000);
      for (;;) {
        const open = await db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', user.accountId)
          .where('status', 'in', ['queued', 'sending', 'sent'])
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        if (Date.now() > deadline) {
          const why = await db
            .selectFrom('messages')
            .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
            .where('account_id', '=', user.accountId)
            .groupBy('status')
            .execute();
          const parked = await db
            .selectFrom('parked_receipts')
            .select(['reason', 'smsc_keys'])
            .limit(3)
            .execute();
          throw new Error(
            `${open.n} messages never reached a final status: ${JSON.stringify({ why, parked })}`,
          );
        }
        await new Promise((r) => setTimeout(r, 250));
      }

      // Each message's outcome is the one the SMSC drew for the id it gave that message.
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('message_parts as p', 'p.message_id', 'm.id')
        .select(['m.id', 'm.status', 'm.smsc_stat', 'p.smsc_key'])
        .where('m.account_id', '=', user.accountId)
        .execute();
      expect(rows).toHaveLength(MESSAGES);
      const drawn = new Map([...smsc.messages.values()].map((s) => [canonicalId(s.id), s.finalStat]));
      const wrong = rows.filter((r) => {
        const stat = drawn.get(r.smsc_key);
        return stat === undefined || r.smsc_stat !== stat || r.status !== statusOfStat(stat);
      });
      expect(wrong.slice(0, 5)).toEqual([]);
      const parked = await db
        .selectFrom('parked_receipts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('matched_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(Number(parked.n)).toBe(0);
    },
    300_000,
  );
});
