import { sql } from 'kysely';
import { genericPlanOk, type Db } from '../../platform/db';
import type { SuppressionReason } from '../../db/schema-inbound';
import { accountOfNumber } from '../numbers/number-owner';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The account that most recently sent to `handset`: first from one of `senders` (the number or
 * sender ID the MO was addressed to, in its spellings, lower case), else from any sender.
 * Both walk messages_recipient_idx newest first.
 */
export async function findSendingAccount(db: Db, handset: string, senders: string[]) {
  // A number assigned to an account (issue 40 item 0) receives for that account, whoever sent last.
  const owner = await accountOfNumber(db, senders);
  if (owner) return owner;
  if (senders.length > 0) {
    const bySender = await db
      .selectFrom('messages')
      .select('account_id')
      .where('recipient', '=', handset)
      .where(sql<boolean>`lower(sender) = ANY(${senders}::text[])`)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (bySender) return bySender.account_id;
  }
  const any = await db
    .selectFrom('messages')
    .select('account_id')
    .where('recipient', '=', handset)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return any?.account_id ?? null;
}

export async function insertInbound(
  db: Db,
  row: {
    account_id: string | null;
    sender: string;
    recipient: string;
    text: string;
    parts: number;
    connection: string;
    keyword: string | null;
    received_at: Date;
  },
) {
  return db.insertInto('inbound_messages').values(row).returning('id').executeTakeFirstOrThrow();
}

export interface InboundFilter {
  accountId: string;
  from?: string;
  text?: string;
  since?: Date;
  until?: Date;
  after?: { receivedAt: Date; id: string };
  limit: number;
}

export type InboundRow = Awaited<ReturnType<typeof listInbound>>[number];

/** The account's inbox, newest first, by keyset (received_at, id). */
export async function listInbound(db: Db, f: InboundFilter) {
  let q = db
    .selectFrom('inbound_messages')
    .select(['id', 'sender', 'recipient', 'text', 'parts', 'keyword', 'received_at'])
    .where('account_id', '=', f.accountId);
  if (f.from) q = q.where('sender', 'like', `%${escapeLike(f.from)}%`);
  if (f.text) q = q.where('text', 'ilike', `%${escapeLike(f.text)}%`);
  if (f.since) q = q.where('received_at', '>=', f.since);
  if (f.until) q = q.where('received_at', '<', f.until);
  if (f.after) {
    const { receivedAt, id } = f.after;
    q = q.where((eb) =>
      eb.or([
        eb('received_at', '<', receivedAt),
        eb.and([eb('received_at', '=', receivedAt), eb('id', '<', id)]),
      ]),
    );
  }
  return q.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
}

const suppressionColumns = ['phone', 'reason', 'inbound_message_id', 'created_at'] as const;
export type SuppressionRow = Awaited<ReturnType<typeof listSuppressions>>[number];

export async function listSuppressions(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('suppressions')
    .select(suppressionColumns)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('phone')
    .limit(limit)
    .execute();
}

/** Adds the number; a number already on the list keeps its first reason. Returns the row. */
export async function addSuppression(
  db: Db,
  s: { accountId: string; phone: string; reason: SuppressionReason; inboundId: string | null },
) {
  return db
    .insertInto('suppressions')
    .values({
      account_id: s.accountId,
      phone: s.phone,
      reason: s.reason,
      inbound_message_id: s.inboundId,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'phone']).doUpdateSet({ phone: (eb) => eb.ref('excluded.phone') }),
    )
    .returning(suppressionColumns)
    .executeTakeFirstOrThrow();
}

export async function removeSuppression(db: Db, accountId: string, phone: string) {
  const r = await db
    .deleteFrom('suppressions')
    .where('account_id', '=', accountId)
    .where('phone', '=', phone)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Which of `phones` are on the account's list, with their reason. */
/**
 * The suppressed numbers of several lookups in one statement: for each (account, phones), the rows
 * found, in the order asked.
 */
export async function findSuppressedMany(
  db: Db,
  lookups: readonly { accountId: string; phones: readonly string[] }[],
): Promise<{ phone: string; reason: SuppressionReason }[][]> {
  const accounts: string[] = [];
  const phones: string[] = [];
  const at: number[] = [];
  lookups.forEach((l, i) => {
    for (const p of l.phones) {
      accounts.push(l.accountId);
      phones.push(p);
      at.push(i);
    }
  });
  const out = lookups.map(() => [] as { phone: string; reason: SuppressionReason }[]);
  if (phones.length === 0) return out;
  // Each given (account, number) looked up in the suppressions' key: the same plan for any list.
  const { rows } = await sql<{ i: number; phone: string; reason: SuppressionReason }>`
    ${genericPlanOk} SELECT k.i, s.phone, s.reason
      FROM unnest(${accounts}::uuid[], ${phones}::text[], ${at}::int[]) AS k(account_id, phone, i)
      JOIN suppressions s ON s.account_id = k.account_id AND s.phone = k.phone`.execute(db);
  for (const r of rows) out[r.i].push({ phone: r.phone, reason: r.reason });
  return out;
}

export async function findSuppressed(db: Db, accountId: string, phones: string[]) {
  if (phones.length === 0) return [];
  return db
    .selectFrom('suppressions')
    .select(['phone', 'reason'])
    .where('account_id', '=', accountId)
    .where(sql<boolean>`phone = ANY(${phones}::text[])`)
    .execute();
}
