import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../db/schema-messaging';
import { type PgElementType, type Db, insertUnnest } from '../../platform/db';
import { DTO_COLUMNS, type MessageDtoRow } from './messages.repository';

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

/**
 * What the messages of a send batch usually have in common (all but their id, number and price),
 * in two groups (insertUnnest's `shared`): the account's and its sender, which the sends of one
 * account share; and one request's text and times.
 */
const SHARED_MESSAGE_COLUMNS = [
  ['account_id', 'campaign_id', 'user_id', 'sender', 'currency', 'status', 'priority', 'encoding'],
  ['body', 'segments', 'scheduled_at', 'timezone', 'next_attempt_at', 'validity_until'],
] as const satisfies readonly (readonly (keyof typeof NEW_MESSAGE_COLUMNS)[])[];

/** A message as a send stores it; the other columns take their defaults. */
export type NewMessage = {
  [K in keyof typeof NEW_MESSAGE_COLUMNS]-?: Exclude<Insertable<MessagesTable>[K], undefined>;
};

/**
 * Inserts messages (and the work queue's rows of those that wait to be sent) in one statement: one
 * round trip per send, not two (send_queue has no foreign key to wait for). Returns the DTO's
 * columns of the inserted rows; `returning: false` (a campaign's batch, an OTP) returns nothing, so
 * PostgreSQL sends and Wren parses no rows it would not read.
 */
export async function insertMessages(
  trx: Db,
  rows: readonly NewMessage[],
  opts: { returning?: boolean } = {},
): Promise<MessageDtoRow[]> {
  if (rows.length === 0) return [];
  const { queue, messages } = messageInserts(rows, opts.returning !== false);
  const statement = queue ? sql`WITH queued AS (${queue}) ${messages}` : messages;
  return (await sql<MessageDtoRow>`${statement}`.execute(trx)).rows;
}

/**
 * `insertMessages` and a payment, all in one statement, run on its own: its transaction lasts as
 * long as the statement, where BEGIN, insert, debit and COMMIT kept it open across four turns of a
 * busy event loop. `payment(after)` is CTEs that define `debited (start_minor, currency)` (ledger's
 * `debitAllCtes`), debiting once `after` is evaluated.
 *
 * The inserts come first and the debit last: `after` counts what every insert wrote, so PostgreSQL
 * runs them all before it reads and locks the account's row, which is then held only for the debit,
 * its ledger entries and the commit, and two sends of one account overlap. When the balance does
 * not cover the send, wren_send_refused() (0027) aborts the statement with everything it inserted,
 * and this returns `null`.
 */
export async function insertMessagesPaid(
  db: Db,
  rows: readonly NewMessage[],
  payment: (after: RawBuilder<unknown>) => RawBuilder<unknown>,
  /** Other modules' writes of the send (SendHook.statement): data-modifying statements without RETURNING. */
  also: readonly RawBuilder<unknown>[] = [],
) {
  // Nothing returned per row: the DTO's columns are the rows as built, and created_at (the column's
  // default, now() at its millisecond precision) is one value for the statement (`insertedDtoRow`).
  // Returning them cost PostgreSQL the output and Wren the parsing of 16 columns a message.
  const { queue, messages } = messageInserts(rows, false);
  const writes = [
    ...(queue ? [{ name: 'queued', statement: sql`${queue} RETURNING 1` }] : []),
    ...also.map((statement, i) => ({ name: `also_${i}`, statement: sql`${statement} RETURNING 1` })),
  ];
  const after = sql.join(
    ['inserted', ...writes.map((w) => w.name)].map((name) => sql`(SELECT count(*) FROM ${sql.raw(name)})`),
    sql` + `,
  );
  try {
    const res = await sql<{ debit_start_minor: string | number; debit_currency: string; created_at: Date }>`
      WITH inserted AS (${messages} RETURNING 1),
           ${sql.join(
             writes.map((w) => sql`${sql.raw(w.name)} AS (${w.statement}),`),
             sql` `,
           )}
           ${payment(sql`${after} > 0`)},
           paid AS (SELECT coalesce(max(start_minor), wren_send_refused()) AS start_minor, max(currency) AS currency
                      FROM debited)
      SELECT p.start_minor AS debit_start_minor, p.currency AS debit_currency, now()::timestamptz(3) AS created_at
        FROM paid p`.execute(db);
    const first = res.rows[0];
    if (!first) return null;
    return {
      rows: rows.map((row) => insertedDtoRow(row, first.created_at)),
      startMinor: Number(first.debit_start_minor),
      currency: first.debit_currency,
    };
  } catch (err) {
    if ((err as { code?: unknown }).code === SEND_REFUSED) return null;
    throw err;
  }
}

/**
 * The DTO's columns of a message just inserted from `row`, as RETURNING would give them: the values
 * as built, created_at the statement's (`now()::timestamptz(3)`, the column's default), and null
 * for what only a later status sets. A test compares them with the stored rows.
 */
export function insertedDtoRow(row: NewMessage, createdAt: Date): MessageDtoRow {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    recipient: row.recipient,
    sender: row.sender,
    body: row.body,
    encoding: row.encoding,
    segments: row.segments,
    price_minor: row.price_minor,
    currency: row.currency,
    status: row.status,
    error: null,
    scheduled_at: row.scheduled_at === null ? null : new Date(row.scheduled_at),
    created_at: createdAt,
    submitted_at: null,
    receipt_due_at: null,
    done_at: null,
  };
}

/** SQLSTATE of wren_send_refused() (0027): the balance did not cover a one-statement send. */
const SEND_REFUSED = 'WR402';

/** The inserts of `rows` into messages (with the DTO's columns returned or not) and send_queue. */
function messageInserts(rows: readonly NewMessage[], returning: boolean) {
  const waiting = rows.filter((r) => r.status === 'queued' || r.status === 'scheduled');
  const messages = sql`${insertUnnest('messages', NEW_MESSAGE_COLUMNS, rows, SHARED_MESSAGE_COLUMNS)}${
    returning ? sql` RETURNING ${sql.join(DTO_COLUMNS.map((c) => sql.ref(c)))}` : sql``
  }`;
  if (waiting.length === 0) return { messages, queue: null };
  const queue = sql`${insertUnnest(
    'send_queue',
    {
      message_id: 'uuid',
      priority: 'smallint',
      due_at: 'timestamptz',
      scheduled: 'boolean',
      validity_until: 'timestamptz',
      campaign_id: 'uuid',
    },
    waiting.map((r) => ({
      message_id: r.id,
      campaign_id: r.campaign_id,
      priority: r.priority,
      due_at: r.status === 'scheduled' && r.scheduled_at ? r.scheduled_at : r.next_attempt_at,
      scheduled: r.status === 'scheduled',
      validity_until: r.validity_until,
    })),
    [
      ['priority', 'scheduled', 'campaign_id'],
      ['due_at', 'validity_until'],
    ],
  )}`;
  return { messages, queue };
}
