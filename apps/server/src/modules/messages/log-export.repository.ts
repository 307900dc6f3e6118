import type { MessageStatus } from '@wren/contracts';
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../platform/db';
import { logQuery, type LogFilter } from './log-query.repository';
import type { SmsLogCsvRow } from './sms-log-csv';

/**
 * The whole filtered log (an export) from ONE server-side cursor on a connection held for the
 * stream: one snapshot, one plan, no re-seek per page. Yields batches of `batchSize` rows. Closing
 * the generator early (the client went away) closes the cursor and returns the connection. Rows come
 * as the CSV's columns of the log's DTO (SmsLogCsvRow).
 */
export async function* streamLog(
  db: Db,
  f: Omit<LogFilter, 'after' | 'limit'>,
  batchSize = 10_000,
): AsyncGenerator<SmsLogCsvRow[]> {
  // The CSV's columns straight from SQL (times as ISO text, as toISOString writes them): no Date
  // parsing and re-formatting per row, and none of the columns an export does not show.
  const iso = (column: string) =>
    sql<string | null>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const query = logQuery(db, f)
    .clearSelect()
    .select([
      'm.id',
      'm.recipient',
      'm.sender',
      'm.body as text',
      'm.encoding',
      'm.segments',
      'm.price_minor as priceMinor',
      'm.currency',
      sql<MessageStatus>`m.status`.as('status'),
      'm.error',
      sql<string>`${iso('m.created_at')}`.as('createdAt'),
      iso('m.submitted_at').as('submittedAt'),
      iso('m.done_at').as('doneAt'),
    ])
    .compile();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let got!: (conn: Db) => void;
  const acquired = new Promise<Db>((resolve) => (got = resolve));
  const session = db.connection().execute(async (conn) => {
    got(conn);
    await held;
  });
  try {
    const conn = await Promise.race([
      acquired,
      session.then(() => Promise.reject(new Error('the export connection closed'))),
    ]);
    await sql`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`.execute(conn);
    try {
      await conn.executeQuery(
        CompiledQuery.raw(`DECLARE sms_log_export NO SCROLL CURSOR FOR ${query.sql}`, [...query.parameters]),
      );
      const size = Math.max(1, Math.floor(batchSize));
      const fetchBatch = () => {
        const p = conn.executeQuery<SmsLogCsvRow>(
          CompiledQuery.raw(`FETCH FORWARD ${size} FROM sms_log_export`),
        );
        p.catch(() => undefined); // awaited below; a fetch left pending by an early close must not go unhandled
        return p;
      };
      // The next batch is fetched while the caller writes this one out.
      let next = fetchBatch();
      for (;;) {
        const { rows } = await next;
        const more = rows.length === size;
        if (more) next = fetchBatch();
        if (rows.length) yield rows;
        if (!more) return;
      }
    } finally {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
    }
  } finally {
    release();
    await session.catch(() => undefined);
  }
}
