import { randomUUID } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from './db-handle';

/**
 * COPY … FROM STDIN THROUGH KYSELY.
 *
 * COPY stores rows at a fraction of an INSERT's server cost (no statement to parse or plan for the
 * data, PostgreSQL's multi-row insert), but Kysely only sends statements, and a transaction's
 * connection is not exposed. So `copyLines` sends a statement that is only a token; every pool
 * client of Wren's (db.ts, `routeCopies`) recognises the token and runs the COPY it stands for in
 * its place, on that same connection. The COPY is then an ordinary statement of the transaction (or
 * of no transaction) in Kysely's queue: it commits or rolls back with it, and works through any
 * pooler, since no connection has to be found by its process id.
 */

interface PendingCopy {
  table: string;
  columns: readonly string[];
  lines: string;
}

const TOKEN_PREFIX = '/* wren-copy ';
const pending = new Map<string, PendingCopy>();

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Stores `lines` (text-format COPY rows, each ending in a newline; write values with `copyText`)
 * with one `COPY <table> (<columns>) FROM STDIN` on `db`, a transaction or the pool. Rejects with
 * PostgreSQL's error (the transaction is then aborted, as after any failed statement).
 */
export async function copyLines(db: Db, table: string, columns: readonly string[], lines: string) {
  const token = randomUUID();
  pending.set(token, { table, columns, lines });
  try {
    await sql.raw(`${TOKEN_PREFIX}${token} */`).execute(db);
  } finally {
    pending.delete(token);
  }
}

/** A value for a text-format COPY line: `\N` for NULL; backslash, tab, line feed and CR escaped. */
export function copyText(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;
}

type QueryFn = (...args: unknown[]) => unknown;

/** Makes `client` run the COPY that a `copyLines` token stands for (installed on every pool client). */
export function routeCopies(client: pg.ClientBase) {
  const original = client.query.bind(client) as QueryFn;
  const routed: QueryFn = (...args) => {
    const [text] = args;
    if (typeof text !== 'string' || !text.startsWith(TOKEN_PREFIX)) return original(...args);
    const job = pending.get(text.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 36));
    if (!job) return Promise.reject(new Error('a COPY token with no rows behind it'));
    const stream = original(
      copyFrom(`COPY ${ident(job.table)} (${job.columns.map(ident).join(', ')}) FROM STDIN`),
    ) as ReturnType<typeof copyFrom>;
    stream.end(job.lines);
    return finished(stream).then(() => ({
      command: 'COPY',
      rowCount: stream.rowCount,
      rows: [],
      fields: [],
    }));
  };
  (client as unknown as { query: QueryFn }).query = routed;
}
