import type { Selectable } from 'kysely';
import type { MessagesTable } from '../../db/schema-messaging';
import { type Db, insertUnnest } from '../../platform/db';

export type MessageRow = Selectable<MessagesTable>;

/**
 * The columns a message's DTO shows (toMessageDto): what the SMS log's pages read. The other half
 * of the row (queue, lease, receipt and refund bookkeeping: three more timestamps) is not read for
 * a page; parsing it was a fifth of Wren's time on a 50-row page (bench:log).
 */
export const DTO_COLUMNS = [
  'id',
  'campaign_id',
  'recipient',
  'sender',
  'body',
  'encoding',
  'segments',
  'price_minor',
  'currency',
  'status',
  'error',
  'scheduled_at',
  'created_at',
  'submitted_at',
  'receipt_due_at',
  'done_at',
] as const satisfies readonly (keyof MessagesTable)[];
export type MessageDtoRow = Pick<MessageRow, (typeof DTO_COLUMNS)[number]>;
/** DTO_COLUMNS of the messages table aliased `m`: what the SMS log's statements select. */
export const LOG_SELECT = DTO_COLUMNS.map((c) => `m.${c}` as const);

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

/** The SMSC ids of a message's parts, in part order, with the receipt that settled each. */
export async function listPartIds(db: Db, messageId: string) {
  return db
    .selectFrom('message_parts')
    .select(['part', 'smsc_key', 'connection', 'stat', 'err', 'raw'])
    .where('message_id', '=', messageId)
    .orderBy('part')
    .execute();
}
