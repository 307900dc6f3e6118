import { randomUUID } from 'node:crypto';
import { FINAL_STATUSES, type MessageStatus } from '@wren/contracts';
import { expect } from 'vitest';
import type { ApiClient } from './client';
import type { TestServer } from './harness';
import { insertMessages, type NewMessage } from '../src/modules/messages/message-inserts.repository';
import { newMessageId } from '../src/shared/message-uuid';
import { transact } from '../src/platform/db';

/** Waits until every given message of the account has a final status; returns them. */
export async function waitForFinal(c: ApiClient, ids: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await Promise.all(ids.map(async (id) => (await c.get(`/api/sms/log/${id}`)).body.message));
    if (items.every((m) => FINAL_STATUSES.includes(m.status))) return items;
    if (Date.now() > deadline) throw new Error(`not final in time: ${items.map((m) => m.status).join(',')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ORDER = ['scheduled', 'queued', 'sending', 'sent', 'final'];
const rank = (s: string) => (FINAL_STATUSES.includes(s as never) ? 4 : ORDER.indexOf(s));

/**
 * Checks the invariants every test must keep: each message's status history never moves backwards
 * once sent (a retry may go sending → queued, never out of a final status), exactly one final status,
 * and the ledger balance equals the sum of its entries.
 */
export async function expectInvariants(server: TestServer, accountId: string) {
  const db = server.ctx.db;
  const events = await db
    .selectFrom('message_events as e')
    .innerJoin('messages as m', 'm.id', 'e.message_id')
    .select(['e.message_id', 'e.status', 'm.status as current'])
    .where('m.account_id', '=', accountId)
    .orderBy('e.id')
    .execute();
  const byMessage = new Map<string, string[]>();
  for (const e of events)
    if (e.status !== 'receipt')
      byMessage.set(e.message_id, [...(byMessage.get(e.message_id) ?? []), e.status]);
  for (const [id, statuses] of byMessage) {
    const finals = statuses.filter((s) => rank(s) === 4);
    expect(finals.length, `message ${id} final statuses ${statuses.join('>')}`).toBeLessThanOrEqual(1);
    const sentAt = statuses.indexOf('sent');
    if (sentAt >= 0) {
      for (const s of statuses.slice(sentAt))
        expect(rank(s), `${id}: ${statuses.join('>')}`).toBeGreaterThanOrEqual(3);
    }
  }
  const { cached, sum } = await server.ctx.services.ledger.verify(db, accountId);
  expect(cached).toBe(sum);
}

/** Stores one message directly (as a send would), for tests that drive later steps themselves. */
export async function insertTestMessage(
  server: TestServer,
  m: { accountId: string; status: MessageStatus; priority?: number; recipient?: string; segments?: number },
) {
  const id = newMessageId();
  await insertMessages(server.ctx.db, [
    {
      id,
      account_id: m.accountId,
      campaign_id: null,
      user_id: null,
      recipient: m.recipient ?? '+14155550123',
      sender: 'Wren',
      body: `Test message (${m.status})`,
      encoding: 'GSM-7',
      segments: m.segments ?? 1,
      price_minor: 1,
      currency: 'USD',
      status: m.status,
      priority: m.priority ?? 1,
      scheduled_at: null,
      timezone: null,
      next_attempt_at: new Date(),
      validity_until: new Date(Date.now() + 3_600_000),
    },
  ]);
  return id;
}

/**
 * A message row as a send stores it, scheduled an hour ahead (so no dispatcher sends it while a test
 * looks at how it was stored and charged).
 */
export function scheduledMessageRow(
  m: { accountId: string; recipient: string; body: string; priceMinor: number },
  now = new Date(),
): NewMessage {
  return {
    id: newMessageId(),
    account_id: m.accountId,
    campaign_id: null,
    user_id: null,
    recipient: m.recipient,
    sender: 'Wren',
    body: m.body,
    encoding: 'GSM-7',
    segments: 1,
    price_minor: m.priceMinor,
    currency: 'USD',
    status: 'scheduled',
    priority: 1,
    scheduled_at: new Date(now.getTime() + 3_600_000),
    timezone: null,
    next_attempt_at: now,
    validity_until: new Date(now.getTime() + 7_200_000),
  };
}

/** Credits an account through the ledger, as a paid top-up does. */
export async function topUp(server: TestServer, accountId: string, amountMinor: number) {
  await transact(server.ctx.db, (trx) =>
    server.ctx.services.ledger.post(trx, { accountId, amountMinor, kind: 'top_up', reference: randomUUID() }),
  );
}
