import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { waitForFinal } from '../messaging';
import { check } from './checker';
import { newRecord, type LoadRecord } from './load';

/** The fault run's checker finds each kind of broken guarantee (so a passing run means something). */
let server: TestServer;
let record: LoadRecord;
let submits: Map<string, number>;
let accountId: string;

beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '5', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
  const c = server.client();
  accountId = (await c.register()).user.accountId;
  record = newRecord();
  submits = new Map();
  for (const to of ['+14155550111', '+14155550112']) {
    const res = await c.post('/api/sms/single', { recipients: [to], text: `Checked ${to}` });
    const id = res.body.messages[0].id as string;
    record.acks.set(id, { id, kind: 'single', key: `${to}|Checked ${to}` });
    submits.set(`${to.slice(1)}|Checked ${to}`, 1);
  }
  await waitForFinal(c, [...record.acks.keys()]);
});
afterAll(() => server?.close());

const run = (over: Partial<Parameters<typeof check>[0]> = {}) =>
  check({
    databaseUrl: server.databaseUrl,
    record,
    submits,
    faults: [],
    inFlight: 200,
    unrecovered: [],
    ...over,
  });

describe('fault-run checker', () => {
  it('passes a clean history', async () => {
    const v = await run();
    expect(v).toMatchObject({ ok: true, acknowledged: 2, duplicated: 0, maxSubmits: 1, ledgerDrift: 0 });
  });

  it('finds a lost message, a resend beyond the bound, a receipt on an unsent message', async () => {
    const lost = { ...record, acks: new Map(record.acks) };
    const ghost = randomUUID();
    lost.acks.set(ghost, { id: ghost, kind: 'v1', key: 'y' });
    expect((await run({ record: lost })).lost).toContain(ghost);

    const twice = new Map(submits);
    const [first] = [...submits.keys()];
    twice.set(first!, 3);
    const v = await run({ submits: twice });
    expect(v).toMatchObject({ ok: false, duplicated: 2, maxSubmits: 3, maxSubmitsBound: 1 });
    // The same resends are within the bound after two faults that can resend.
    expect(
      await run({ submits: twice, faults: [{ kind: 'kill-worker' }, { kind: 'pg-cut' }] }),
    ).toMatchObject({ ok: true });

    const never = new Map(submits);
    never.delete(first!);
    expect((await run({ submits: never })).phantom).toHaveLength(1);
  });

  it('finds an Idempotency-Key with two messages, 5xx answers, a node that did not come back', async () => {
    const ids = [...record.acks.keys()];
    const broken = {
      ...record,
      idempotency: new Map([['k1', new Set(ids)]]),
      violations: ['POST /v1/messages 500'],
    };
    const v = await run({ record: broken, unrecovered: ['worker-2'] });
    expect(v.ok).toBe(false);
    expect(v.idempotencyBroken).toEqual(['k1: 2 messages']);
    expect(v.violations).toHaveLength(1);
    expect(v.unrecovered).toEqual(['worker-2']);
  });

  it('finds ledger drift', async () => {
    await sql`UPDATE accounts SET balance_minor = balance_minor + 1 WHERE id = ${accountId}`.execute(
      server.ctx.db,
    );
    try {
      expect(await run()).toMatchObject({ ok: false, ledgerDrift: 1 });
    } finally {
      await sql`UPDATE accounts SET balance_minor = balance_minor - 1 WHERE id = ${accountId}`.execute(
        server.ctx.db,
      );
    }
  });
});
