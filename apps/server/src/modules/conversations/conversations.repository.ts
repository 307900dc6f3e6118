import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export interface ConversationRow {
  id: string;
  remote: string;
  local: string;
  name: string | null;
  last_at: Date;
  last_text: string;
  last_direction: 'in' | 'out';
  unread: number;
  archived_at: Date | null;
  assigned_user_id: string | null;
  assignee_name: string | null;
}

/** The spellings a number is stored under: `+447…` and `447…` (senders and MO addresses vary). */
export const spellingsOf = (v: string): string[] => {
  const t = v.trim().toLowerCase();
  const digits = t.replace(/^\+/, '');
  return /^\d+$/.test(digits) ? [digits, `+${digits}`] : [t];
};

/** How a thread names the account's side: digits without + when numeric, else as written. */
export const localOf = (v: string): string => {
  const t = v.trim();
  const digits = t.replace(/^\+/, '');
  return /^\d+$/.test(digits) ? digits : t;
};

const PREVIEW = 160;

/**
 * Records a message on its thread (created when it is the first): the last message, and one more
 * unread when it came in. `at` is kept to the millisecond, the precision of the list's cursor.
 */
export async function touchConversation(
  trx: Db,
  c: { accountId: string; remote: string; local: string; text: string; direction: 'in' | 'out'; at: Date },
): Promise<string> {
  const unread = c.direction === 'in' ? 1 : 0;
  const { rows } = await sql<{ id: string }>`
    INSERT INTO conversations (account_id, remote, local, last_at, last_text, last_direction, unread)
    VALUES (${c.accountId}::uuid, ${c.remote}, ${c.local}, date_trunc('milliseconds', ${c.at}::timestamptz),
            ${c.text.slice(0, PREVIEW)}, ${c.direction}, ${unread})
    ON CONFLICT (account_id, remote, local) DO UPDATE SET
      last_at = GREATEST(conversations.last_at, EXCLUDED.last_at),
      last_text = CASE WHEN EXCLUDED.last_at >= conversations.last_at THEN EXCLUDED.last_text ELSE conversations.last_text END,
      last_direction = CASE WHEN EXCLUDED.last_at >= conversations.last_at THEN EXCLUDED.last_direction
                            ELSE conversations.last_direction END,
      unread = conversations.unread + EXCLUDED.unread,
      -- A new message brings an archived thread back.
      archived_at = CASE WHEN EXCLUDED.last_direction = 'in' THEN NULL ELSE conversations.archived_at END
    RETURNING id`.execute(trx);
  return rows[0].id;
}

const listed = (db: Db, accountId: string) =>
  db
    .selectFrom('conversations as c')
    .leftJoin('users as u', 'u.id', 'c.assigned_user_id')
    .select([
      'c.id',
      'c.remote',
      'c.local',
      'c.last_at',
      'c.last_text',
      'c.last_direction',
      'c.unread',
      'c.archived_at',
      'c.assigned_user_id',
      'u.name as assignee_name',
      sql<string | null>`(SELECT name FROM contacts k WHERE k.account_id = c.account_id AND k.phone = c.remote
                           AND k.name <> '' ORDER BY k.created_at LIMIT 1)`.as('name'),
    ])
    .where('c.account_id', '=', accountId);

/** A page of the account's threads, newest first; `q` matches the number, a contact's name or the last text. */
export async function listConversations(
  db: Db,
  q: {
    accountId: string;
    archived: boolean;
    text?: string;
    assignee?: string;
    after?: { at: Date; id: string };
    limit: number;
  },
): Promise<ConversationRow[]> {
  let query = listed(db, q.accountId)
    .where(sql<boolean>`(c.archived_at IS NULL) = ${!q.archived}`)
    .orderBy('c.last_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(q.limit);
  if (q.after) {
    const { at, id } = q.after;
    query = query.where(sql<boolean>`(c.last_at, c.id) < (${at}::timestamptz, ${id}::uuid)`);
  }
  if (q.assignee) query = query.where('c.assigned_user_id', '=', q.assignee);
  if (q.text) {
    const like = `%${q.text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const digits = q.text.replace(/[^\d]/g, '');
    query = query.where((eb) =>
      eb.or([
        eb('c.last_text', 'ilike', like),
        ...(digits.length >= 3 ? [eb('c.remote', 'like', `%${digits}%`)] : []),
        eb.exists(
          eb
            .selectFrom('contacts as k')
            .select('k.id')
            .whereRef('k.account_id', '=', 'c.account_id')
            .whereRef('k.phone', '=', 'c.remote')
            .where('k.name', 'ilike', like),
        ),
      ]),
    );
  }
  return await query.execute();
}

export async function getConversation(db: Db, accountId: string, id: string) {
  return await listed(db, accountId).where('c.id', '=', id).executeTakeFirst();
}

export async function unreadTotal(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select(sql<number>`coalesce(sum(unread), 0)::int`.as('n'))
    .where('account_id', '=', accountId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function setRead(db: Db, accountId: string, id: string) {
  const r = await db
    .updateTable('conversations')
    .set({ unread: 0 })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setArchived(db: Db, accountId: string, id: string, archived: boolean) {
  const r = await db
    .updateTable('conversations')
    .set({ archived_at: archived ? sql`now()` : null })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setAssignee(db: Db, accountId: string, id: string, userId: string | null) {
  const r = await db
    .updateTable('conversations')
    .set({ assigned_user_id: userId })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface ThreadRow {
  id: string;
  direction: 'in' | 'out';
  text: string;
  at: Date;
  status: string | null;
  parts: number;
}

/**
 * A thread's messages, both directions, newest first, before a point: the account's messages to
 * the handset from the thread's sender and the handset's messages to it.
 */
export async function threadMessages(
  db: Db,
  t: { accountId: string; remote: string; local: string; before?: { at: Date; id: string }; limit: number },
): Promise<ThreadRow[]> {
  const locals = spellingsOf(t.local);
  const remotes = spellingsOf(t.remote);
  const beforeOut = t.before
    ? sql`AND (date_trunc('milliseconds', created_at), id) < (${t.before.at}::timestamptz, ${t.before.id}::uuid)`
    : sql``;
  const beforeIn = t.before
    ? sql`AND (date_trunc('milliseconds', received_at), id) < (${t.before.at}::timestamptz, ${t.before.id}::uuid)`
    : sql``;
  const { rows } = await sql<ThreadRow>`
    SELECT * FROM (
      (SELECT id, 'out' AS direction, body AS text, date_trunc('milliseconds', created_at) AS at, status,
              segments AS parts
         FROM messages
        WHERE recipient = ${t.remote} AND account_id = ${t.accountId}::uuid
          AND lower(sender) = ANY(${locals}::text[]) ${beforeOut}
        ORDER BY created_at DESC, id DESC LIMIT ${t.limit})
      UNION ALL
      (SELECT id, 'in', text, date_trunc('milliseconds', received_at), NULL, parts
         FROM inbound_messages
        WHERE account_id = ${t.accountId}::uuid AND sender = ANY(${remotes}::text[])
          AND lower(recipient) = ANY(${locals}::text[]) ${beforeIn}
        ORDER BY received_at DESC, id DESC LIMIT ${t.limit})
    ) m ORDER BY at DESC, id DESC LIMIT ${t.limit}`.execute(db);
  return rows;
}
