import { FINAL_STATUSES, MESSAGE_STATUSES, type MessageStatus } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage } from '../../../test/messaging';
import { canTransition, fromStatesOf, TRANSITIONS } from './message-state';
import { transition } from './status.repository';

let server: TestServer;
let accountId: string;
beforeAll(async () => {
  server = await startServer();
  accountId = (await server.client().register()).user.accountId;
});
afterAll(async () => {
  await server?.close();
});

const messageIn = (status: MessageStatus) => insertTestMessage(server, { accountId, status });

const statusOf = async (id: string) =>
  await server.ctx.db
    .selectFrom('messages')
    .select(['status', 'done_at', 'submitted_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the message state machine', () => {
  it('declares every status, and final statuses have no way out', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...MESSAGE_STATUSES].sort());
    for (const s of FINAL_STATUSES) expect(TRANSITIONS[s]).toEqual([]);
    // Every final status is reachable from a fresh message.
    const reach = new Set<MessageStatus>(['scheduled', 'queued']);
    for (let changed = true; changed;) {
      changed = false;
      for (const s of [...reach])
        for (const t of TRANSITIONS[s])
          if (!reach.has(t)) {
            reach.add(t);
            changed = true;
          }
    }
    expect([...reach].sort()).toEqual([...MESSAGE_STATUSES].sort());
  });

  it('moves a message along exactly the declared arrows, in the database', async () => {
    let moved = 0;
    for (const from of MESSAGE_STATUSES) {
      for (const to of MESSAGE_STATUSES) {
        const id = await messageIn(from);
        // `from` deliberately unchecked here: the table decides, as it does for every caller.
        const rows = await transition(server.ctx.db, { to, from: [from] as never, rows: [id] });
        const after = await statusOf(id);
        const allowed = canTransition(from, to);
        expect(
          rows.map((r) => r.id),
          `${from} → ${to}`,
        ).toEqual(allowed ? [id] : []);
        expect(after.status, `${from} → ${to}`).toBe(allowed ? to : from);
        if (allowed) {
          moved += 1;
          expect(after.done_at !== null, `${from} → ${to} done_at`).toBe(FINAL_STATUSES.includes(to));
          if (to === 'sent') expect(after.submitted_at).not.toBeNull();
        }
      }
    }
    expect(moved).toBe(Object.values(TRANSITIONS).reduce((n, list) => n + list.length, 0));
  });

  it('takes its default `from` states from the table, so a late event never moves a final message', async () => {
    expect(fromStatesOf('delivered')).toEqual(['sent']);
    expect(fromStatesOf('queued').sort()).toEqual(['scheduled', 'sending']);
    const done = await messageIn('delivered');
    expect(await transition(server.ctx.db, { to: 'undelivered', rows: [done] })).toEqual([]);
    expect((await statusOf(done)).status).toBe('delivered');
  });

  it('records each row its own values, whether a batch shares them or not', async () => {
    const read = (id: string) =>
      server.ctx.db
        .selectFrom('messages')
        .select(['smsc_stat', 'smsc_err', 'error', 'receipt_due_at', 'submitted_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    // Shared: every row the same receipt (sent as scalar parameters).
    const same = [await messageIn('sent'), await messageIn('sent'), await messageIn('sent')];
    const moved = await transition(server.ctx.db, {
      to: 'delivered',
      rows: same.map((id) => ({ id, smscStat: 'DELIVRD', smscErr: '000' })),
    });
    expect(moved.map((r) => r.id).sort()).toEqual([...same].sort());
    for (const id of same) expect(await read(id)).toMatchObject({ smsc_stat: 'DELIVRD', smsc_err: '000' });
    // Distinct: each row its own (one jsonb lookup per row); a row without values keeps its own.
    const [a, b, c] = [await messageIn('sent'), await messageIn('sent'), await messageIn('sent')];
    await transition(server.ctx.db, {
      to: 'undelivered',
      rows: [
        { id: a!, smscStat: 'UNDELIV', smscErr: '001' },
        { id: b!.toUpperCase(), smscStat: 'UNDELIV', smscErr: '099', error: 'absent subscriber' },
        c!,
      ],
    });
    expect(await read(a!)).toMatchObject({ smsc_stat: 'UNDELIV', smsc_err: '001', error: null });
    expect(await read(b!)).toMatchObject({
      smsc_stat: 'UNDELIV',
      smsc_err: '099',
      error: 'absent subscriber',
    });
    expect(await read(c!)).toMatchObject({ smsc_stat: null, smsc_err: null });
    // Shared on `sent`: one submit time and one receipt deadline for all, each stored as given.
    const queued = [await messageIn('sending'), await messageIn('sending')];
    await new Promise((r) => setTimeout(r, 20));
    const at = new Date(); // after the messages were accepted, before now: stored as it is
    await new Promise((r) => setTimeout(r, 20));
    await transition(server.ctx.db, {
      to: 'sent',
      rows: queued.map((id) => ({ id, submittedAt: at, receiptTimeoutMinutes: 30 })),
    });
    for (const id of queued) {
      const row = await read(id);
      expect(row.submitted_at?.getTime()).toBe(at.getTime());
      const due = row.receipt_due_at!.getTime() - Date.now();
      expect(due).toBeGreaterThan(29 * 60_000);
      expect(due).toBeLessThanOrEqual(30 * 60_000);
    }
  });

  it('rejects a disallowed arrow at compile time', () => {
    // @ts-expect-error delivered is not reachable from queued
    const call = () => transition(server.ctx.db, { to: 'delivered', from: ['queued'], rows: [] });
    expect(typeof call).toBe('function');
  });
});
