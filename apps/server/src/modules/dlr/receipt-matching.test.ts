import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage } from '../../../test/messaging';
import type { IdNotation } from '../../gateway/message-id';
import { insertParts } from '../messages/outcomes.repository';
import { OLD_NOTATION_ONLY, PREVIOUS_FALLBACK_MS, type Incoming } from './incoming';
import type { NotationRegistry } from './notation-registry';
import { createReceiptMatcher } from './receipt-matching';

/**
 * After a notation change (hex answers with decimal receipts, then sequential decimal ids), a
 * receipt whose own part is not stored yet names, in the old notation, another open part: receipt
 * "100" is part "64" (0x64) read the old way. Under load (CI) its own part came seconds later, and
 * it was given to message "64". It is parked instead, and only a receipt parked PREVIOUS_FALLBACK_MS
 * ago goes to the old part; one whose own part is stored by then goes to its own.
 */
let server: TestServer;
let accountId: string;
beforeAll(async () => {
  server = await startServer({});
  accountId = (await server.client().register()).user.accountId;
});
afterAll(() => server.close());

const decDec: IdNotation = { submit: 'dec', receipt: 'dec' };
const hexDec: IdNotation = { submit: 'hex', receipt: 'dec' };

function changedRegistry(since: Date): NotationRegistry {
  return {
    notationFor: () => decDec,
    isSettled: () => true,
    learnedNotation: () => decDec,
    previousNotation: () => ({ notation: hexDec, since }),
    fallbackNotations: () => [],
    observe: () => undefined,
    changed: () => undefined,
    load: () => Promise.resolve(),
  } as unknown as NotationRegistry;
}

const receipt = (connection: string, smscId: string, extra: Partial<Incoming> = {}): Incoming => ({
  receipt: {
    connection,
    smscId,
    stat: 'DELIVRD',
    err: '000',
    doneAt: null,
    raw: `id:${smscId} sub:001 dlvrd:001 stat:DELIVRD err:000 text:`,
  },
  tries: 1,
  since: Date.now() - 5_000, // waited its 2 s already
  fresh: false,
  done: { resolve: () => undefined, reject: () => undefined },
  ...extra,
});

async function partNamed(connection: string, key: string) {
  const id = await insertTestMessage(server, { accountId, status: 'sent' });
  await insertParts(server.ctx.db, [{ connection, smsc_key: key, message_id: id, part: 0 }]);
  return id;
}

describe('receipt matching after a notation change', () => {
  it('parks a receipt that names another open part only in the old notation, and gives it there only after PREVIOUS_FALLBACK_MS', async () => {
    const c = 'smsc-changed-1';
    const m64 = await partNamed(c, '64');
    const matcher = createReceiptMatcher({
      notations: changedRegistry(new Date(Date.now() + 1000)),
      endsPart: () => true,
    });

    const fresh = await matcher.match(server.ctx.db, [receipt(c, '100')]);
    expect(fresh.matched).toEqual([]);
    expect(fresh.misses.map((m) => m.reason)).toEqual([OLD_NOTATION_ONLY]);

    const parkedJustNow = await matcher.match(server.ctx.db, [
      receipt(c, '100', { parkedId: 1, parkedAt: Date.now() - 1000 }),
    ]);
    expect(parkedJustNow.matched).toEqual([]);

    const parkedLong = await matcher.match(server.ctx.db, [
      receipt(c, '100', { parkedId: 1, parkedAt: Date.now() - PREVIOUS_FALLBACK_MS - 1 }),
    ]);
    expect(parkedLong.matched.map((m) => m.hit.message_id)).toEqual([m64]);
  });

  it('never gives a receipt whose own part is stored to the old-notation part: ambiguous until that one has its receipt', async () => {
    const c = 'smsc-changed-2';
    await partNamed(c, '64');
    const matcher = createReceiptMatcher({
      notations: changedRegistry(new Date(Date.now() + 1000)),
      endsPart: () => true,
    });
    expect((await matcher.match(server.ctx.db, [receipt(c, '100')])).matched).toEqual([]);
    const own = await partNamed(c, '100');
    const long = { parkedId: 1, parkedAt: Date.now() - PREVIOUS_FALLBACK_MS - 1 };
    const both = await matcher.match(server.ctx.db, [receipt(c, '100', long)]);
    expect(both.matched).toEqual([]);
    expect(both.misses[0]?.reason).toMatch(
      /^ambiguous: the id also fits an open part in the notation used before/,
    );
    // Part "64" gets its own receipt: "100" is then only its own part's.
    await sql`UPDATE message_parts SET stat = 'DELIVRD' WHERE connection = ${c} AND smsc_key = '64'`.execute(
      server.ctx.db,
    );
    const retried = await matcher.match(server.ctx.db, [receipt(c, '100', long)]);
    expect(retried.matched.map((m) => m.hit.message_id)).toEqual([own]);
  });
});
