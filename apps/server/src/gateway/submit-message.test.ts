import { describe, expect, it } from 'vitest';
import type { SendResult, SmppBind } from './smpp-bind';
import type { Acquired, SmppConnection } from './smpp-connection';
import { RecentCount } from './recent-count';
import { submitParts } from './submit-message';

const ok = (id: string): SendResult => ({ kind: 'resp', status: 0, messageId: id, pauseMs: 0 });
const status = (s: number, pauseMs = 0): SendResult => ({ kind: 'resp', status: s, messageId: '', pauseMs });

/** A connection whose single bind answers with `script`, in order; records what was sent. */
function fake(script: (SendResult | 'no-bind')[]) {
  const sent: unknown[] = [];
  const bind = {
    submit: async (fields: unknown) => {
      sent.push(fields);
      const next = script.shift();
      if (!next || next === 'no-bind') throw new Error('script exhausted');
      return next;
    },
  } as unknown as SmppBind;
  const conn = {
    name: 'c1',
    cfg: { responseTimeoutMs: 1000, throttlePauseMs: 1 },
    throttles: new RecentCount(Date.now),
    submitErrors: new RecentCount(Date.now),
    delay: (ms: number) => new Promise((r) => setTimeout(r, ms)),
    acquire: async (): Promise<Acquired> => {
      if (script[0] === 'no-bind') {
        script.shift();
        return { reason: 'no bound SMPP session', retryAfterMs: 5000 };
      }
      return bind;
    },
  } as unknown as SmppConnection;
  return { conn, sent };
}

const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ short_message: `p${i}` }));

describe('submitParts outcomes', () => {
  it('accepts when every part is accepted', async () => {
    const { conn, sent } = fake([ok('a'), ok('b')]);
    expect(await submitParts(conn, parts(2))).toEqual({
      kind: 'accepted',
      connection: 'c1',
      smscIds: ['a', 'b'],
    });
    expect(sent).toHaveLength(2);
  });

  it.each([
    [[status(0x58, 1000)], { kind: 'retry', retryAfterMs: 1000 }],
    [[status(0x14, 500)], { kind: 'retry', retryAfterMs: 500 }],
    [[status(0x08)], { kind: 'retry', reason: 'ESME_RSYSERR (0x08)' }],
    [[status(0x64)], { kind: 'retry' }],
    [[{ kind: 'not-written', reason: 'x' }], { kind: 'retry', reason: 'x' }],
    [['no-bind'], { kind: 'retry', retryAfterMs: 5000 }],
    [[status(0x0b)], { kind: 'rejected', commandStatus: 0x0b, reason: 'ESME_RINVDSTADR (0x0b)' }],
    [[status(0x45)], { kind: 'rejected', commandStatus: 0x45 }],
    [[status(0x0a)], { kind: 'rejected', commandStatus: 0x0a }],
    [[status(0x401)], { kind: 'rejected', commandStatus: 0x401, reason: '0x401' }],
    [[{ kind: 'invalid', reason: 'bad' }], { kind: 'rejected', commandStatus: 0 }],
    [[{ kind: 'timeout' }], { kind: 'unknown', smscIds: [] }],
    [[{ kind: 'closed', reason: 'connection closed' }], { kind: 'unknown', smscIds: [] }],
  ] as const)('part 0: %j → %j', async (script, expected) => {
    const { conn, sent } = fake([...script]);
    expect(await submitParts(conn, parts(2))).toMatchObject(expected);
    expect(sent.length).toBeLessThanOrEqual(1); // part 1 never sent
  });

  it('retries a later part on throttling, transient errors and unwritten PDUs', async () => {
    const { conn, sent } = fake([
      ok('a'),
      status(0x58),
      status(0x08),
      { kind: 'not-written', reason: 'down' },
      ok('b'),
    ]);
    expect(await submitParts(conn, parts(2))).toMatchObject({ kind: 'accepted', smscIds: ['a', 'b'] });
    expect(sent).toEqual([{ short_message: 'p0' }, ...Array(4).fill({ short_message: 'p1' })]);
  });

  it('gives unknown with the accepted ids when a later part keeps failing or fails for good', async () => {
    const throttled = fake([ok('a'), ok('b'), status(0x58), status(0x58), status(0x58), status(0x58)]);
    expect(await submitParts(throttled.conn, parts(3))).toMatchObject({
      kind: 'unknown',
      smscIds: ['a', 'b'],
    });
    expect(throttled.sent).toHaveLength(6);

    const permanent = fake([ok('a'), status(0x0b)]);
    const out = await submitParts(permanent.conn, parts(2));
    expect(out).toMatchObject({ kind: 'unknown', smscIds: ['a'] });
    expect((out as { reason: string }).reason).toMatch(/ESME_RINVDSTADR.*part 2\/2/);

    const lost = fake([ok('a'), 'no-bind']);
    expect(await submitParts(lost.conn, parts(2))).toMatchObject({ kind: 'unknown', smscIds: ['a'] });

    const timeout = fake([ok('a'), { kind: 'timeout' }]);
    expect(await submitParts(timeout.conn, parts(2))).toMatchObject({ kind: 'unknown', smscIds: ['a'] });
    expect(timeout.sent).toHaveLength(2);
  });
});
