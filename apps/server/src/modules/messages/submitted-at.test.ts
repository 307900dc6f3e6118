import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { claimBatch } from './outcomes.repository';
import { transition } from './status.repository';

/**
 * A message's submitted time is when the SMSC accepted it (the dispatcher passes the time its answer
 * came), not when the dispatcher's batch of outcomes was stored: under a campaign's drain a batch of
 * 2,000 outcomes waits 50-150 ms behind the one being stored. The time is kept between the message's
 * acceptance and now, whatever clock it came from.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
});
afterAll(async () => {
  await server?.close();
});

describe('submitted_at', () => {
  it('records the given submit time, kept between the message’s acceptance and now', async () => {
    const { db } = server.ctx;
    const c = server.client();
    await c.register();
    const numbers = ['+14155550181', '+14155550182', '+14155550183', '+14155550184'];
    const sent = await c.post('/api/sms/single', { recipients: numbers, text: 'submitted at' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const claimed = await claimBatch(db, 'submit-time-worker', 10, 60);
    expect(claimed).toHaveLength(4);
    const created = await sql<{ id: string; recipient: string; created_at: Date }>`
      SELECT id, recipient, created_at FROM messages WHERE id = ANY(${claimed.map((m) => m.id)}::uuid[])`.execute(
      db,
    );
    const byPhone = new Map(created.rows.map((r) => [r.recipient, r]));
    const m = (phone: string) => byPhone.get(phone)!;
    await new Promise((r) => setTimeout(r, 400));
    const answered = new Date(m(numbers[0]!).created_at.getTime() + 150);
    const before = Date.now();
    const moved = await transition(db, {
      to: 'sent',
      from: ['sending'],
      heldBy: 'submit-time-worker',
      rows: [
        { id: m(numbers[0]!).id, submittedAt: answered },
        { id: m(numbers[1]!).id },
        { id: m(numbers[2]!).id, submittedAt: new Date(m(numbers[2]!).created_at.getTime() - 60_000) },
        { id: m(numbers[3]!).id, submittedAt: new Date(Date.now() + 60_000) },
      ],
    });
    const after = Date.now();
    expect(moved).toHaveLength(4);
    const { rows } = await sql<{ recipient: string; submitted_at: Date; created_at: Date }>`
      SELECT recipient, submitted_at, created_at FROM messages WHERE id = ANY(${claimed.map((x) => x.id)}::uuid[])`.execute(
      db,
    );
    const at = new Map(rows.map((r) => [r.recipient, r]));
    // The SMSC's answer time, 250 ms before this batch was stored.
    expect(at.get(numbers[0]!)!.submitted_at.getTime()).toBe(answered.getTime());
    // None given: when it was stored.
    const stored = at.get(numbers[1]!)!.submitted_at.getTime();
    expect(stored).toBeGreaterThanOrEqual(before - 50);
    expect(stored).toBeLessThanOrEqual(after + 50);
    // A clock behind: never before the message was accepted.
    expect(at.get(numbers[2]!)!.submitted_at.getTime()).toBe(at.get(numbers[2]!)!.created_at.getTime());
    // A clock ahead: never after it was stored.
    expect(at.get(numbers[3]!)!.submitted_at.getTime()).toBeLessThanOrEqual(after + 50);
  });

  it('stores the parts of the messages it moved to sent, and none of a message this worker no longer holds', async () => {
    const { db } = server.ctx;
    const c = server.client();
    await c.register();
    const numbers = ['+14155550191', '+14155550192'];
    expect((await c.post('/api/sms/single', { recipients: numbers, text: 'parts with sent' })).status).toBe(
      202,
    );
    const claimed = await claimBatch(db, 'parts-worker', 10, 60);
    expect(claimed).toHaveLength(2);
    const [mine, lost] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
    // The second one's lease went to another worker meanwhile (expired and claimed again).
    await sql`UPDATE send_queue SET leased_by = 'other-worker' WHERE message_id = ${lost.id}::uuid`.execute(
      db,
    );
    const moved = await transition(db, {
      to: 'sent',
      from: ['sending'],
      heldBy: 'parts-worker',
      connection: 'parts-test',
      rows: [mine.id, lost.id],
      parts: [
        { connection: 'parts-test', smsc_key: 'a1', message_id: mine.id, part: 0 },
        { connection: 'parts-test', smsc_key: 'a2', message_id: mine.id, part: 1 },
        { connection: 'parts-test', smsc_key: 'b1', message_id: lost.id, part: 0 },
      ],
    });
    expect(moved.map((m) => m.id)).toEqual([mine.id]);
    const parts = await sql<{ message_id: string; smsc_key: string }>`
      SELECT message_id, smsc_key FROM message_parts WHERE connection = 'parts-test' ORDER BY smsc_key`.execute(
      db,
    );
    expect(parts.rows).toEqual([
      { message_id: mine.id, smsc_key: 'a1' },
      { message_id: mine.id, smsc_key: 'a2' },
    ]);
  });
});
