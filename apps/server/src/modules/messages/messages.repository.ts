import { sql, type Insertable, type Selectable } from 'kysely';
import type { MessagesTable } from '../../db/schema-messaging';
import { type PgElementType, type Db, insertUnnest } from '../../platform/db';

export type MessageRow = Selectable<MessagesTable>;

const NEW_MESSAGE_COLUMNS = {
  id: 'uuid',
  account_id: 'uuid',
  campaign_id: 'uuid',
  user_id: 'uuid',
  recipient: 'text',
  sender: 'text',
  body: 'text',
  encoding: 'text',
  segments: 'integer',
  price_minor: 'integer',
  currency: 'text',
  status: 'text',
  priority: 'smallint',
  scheduled_at: 'timestamptz',
  timezone: 'text',
  next_attempt_at: 'timestamptz',
  validity_until: 'timestamptz',
} as const satisfies Partial<Record<keyof MessagesTable, PgElementType>>;

/** A message as a send stores it; the other columns take their defaults. */
export type NewMessage = {
  [K in keyof typeof NEW_MESSAGE_COLUMNS]-?: Exclude<Insertable<MessagesTable>[K], undefined>;
};

/** Stores new messages; those waiting to be sent (queued or scheduled) join the work queue. */
export async function insertMessages(trx: Db, rows: readonly NewMessage[]) {
  if (rows.length === 0) return [];
  const { rows: out } =
    await sql<MessageRow>`${insertUnnest('messages', NEW_MESSAGE_COLUMNS, rows)} RETURNING *`.execute(trx);
  const waiting = rows.filter((r) => r.status === 'queued' || r.status === 'scheduled');
  if (waiting.length) {
    await insertUnnest(
      'send_queue',
      {
        message_id: 'uuid',
        priority: 'smallint',
        due_at: 'timestamptz',
        scheduled: 'boolean',
        validity_until: 'timestamptz',
      },
      waiting.map((r) => ({
        message_id: r.id,
        priority: r.priority,
        due_at: r.status === 'scheduled' && r.scheduled_at ? r.scheduled_at : r.next_attempt_at,
        scheduled: r.status === 'scheduled',
        validity_until: r.validity_until,
      })),
    ).execute(trx);
  }
  return out;
}

export async function insertEvents(
  trx: Db,
  events: readonly { message_id: string; status: string; detail?: string | null; raw?: string | null }[],
) {
  if (events.length === 0) return;
  await insertUnnest(
    'message_events',
    { message_id: 'uuid', status: 'text', detail: 'text', raw: 'text' },
    events.map((e) => ({
      message_id: e.message_id,
      status: e.status,
      detail: e.detail ?? null,
      raw: e.raw ?? null,
    })),
  ).execute(trx);
}

export interface LogFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  status?: string;
  recipient?: string;
  sender?: string;
  text?: string;
  campaignId?: string;
  after?: { createdAt: Date; id: string };
  limit: number;
}

/** The SMS log, newest first, by keyset on (created_at, id); never OFFSET. */
export async function listLog(db: Db, f: LogFilter) {
  let q = db.selectFrom('messages').selectAll().where('account_id', '=', f.accountId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<', f.to);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.recipient) q = q.where('recipient', 'like', `%${escapeLike(f.recipient)}%`);
  if (f.sender) q = q.where(sql`lower(sender)`, '=', f.sender.toLowerCase());
  if (f.text) q = q.where('body', 'ilike', `%${escapeLike(f.text)}%`);
  if (f.campaignId) q = q.where('campaign_id', '=', f.campaignId);
  if (f.after) {
    const { createdAt, id } = f.after;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
      ]),
    );
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
}

export async function findMessage(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listEvents(db: Db, messageId: string) {
  return db
    .selectFrom('message_events')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
}

/** The SMSC ids of a message's parts, in part order. */
export async function listPartIds(db: Db, messageId: string) {
  return db
    .selectFrom('message_parts')
    .select(['part', 'smsc_key', 'connection', 'stat', 'err'])
    .where('message_id', '=', messageId)
    .orderBy('part')
    .execute();
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
