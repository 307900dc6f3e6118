import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type Insertable } from 'kysely';
import pg from 'pg';
import type { DB } from '../db/schema';
import { routeCopies } from './copy';
import { startEmbeddedPostgres } from './embedded-postgres';
import { parseTimestamptz, TIMESTAMPTZ } from './pg-timestamp';
import {
  createStatementCache,
  GENERIC_PLAN_OK,
  prepareRepeatedStatements,
  type StatementCache,
} from './statement-cache';

import type { Db } from './db-handle';

export type { Db };

export interface Database {
  db: Db;
  /** `embedded`: the cluster Wren runs itself under DATA_DIR; `postgres`: DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** The embedded cluster (its data dir and a superuser URL): backups use it (platform/backup.ts). */
  embedded?: { root: string; url: string };
  /** Runs a multi-statement SQL script (migrations). */
  execScript(sql: string): Promise<void>;
  close(): Promise<void>;
}

const INT8 = 20;
const parseInt8 = (v: string) => Number(v);

/** The database Wren creates on its embedded cluster. */
export const EMBEDDED_DATABASE = 'wren';

/**
 * Opens the PostgreSQL at `databaseUrl`, or else the embedded native PostgreSQL under
 * `<dataDir>/pg` (started on a free port on 127.0.0.1, stopped again by `close()`).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  /** Repeated statements as named prepared statements (DATABASE_PREPARE; default on). */
  databasePrepare?: boolean;
  /** Extra postmaster settings (embedded only). */
  embeddedPgSettings?: Record<string, string>;
  /** PostgreSQL's own log lines (embedded only). */
  onPostgresLog?: (line: string) => void;
}): Promise<Database> {
  const statements = opts.databasePrepare === false ? null : createStatementCache();
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, 10, statements);
  const cluster = await startEmbeddedPostgres({
    root: path.resolve(opts.dataDir),
    database: EMBEDDED_DATABASE,
    log: opts.onPostgresLog,
    settings: opts.embeddedPgSettings,
  });
  try {
    const database = await openPostgres(cluster.url(EMBEDDED_DATABASE), 10, statements);
    return {
      ...database,
      kind: 'embedded',
      embedded: { root: path.resolve(opts.dataDir), url: cluster.url(EMBEDDED_DATABASE) },
      close: async () => {
        try {
          await database.close();
        } finally {
          await cluster.stop();
        }
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/** How long a query waits for a free pooled connection before it fails. */
export const POOL_WAIT_MS = 30_000;

/** How long an unused pooled connection stays open. */
export const POOL_IDLE_TIMEOUT_MS = 10 * 60_000;

export async function openPostgres(
  url: string,
  max = 10,
  statements: StatementCache | null = null,
): Promise<Database> {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8
        ? parseInt8
        : oid === TIMESTAMPTZ && format !== 'binary'
          ? parseTimestamptz
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  // Connections stay open while idle (pg's default closes one after 10 s): a worker's periodic
  // passes every second borrow two or three at once, and each one closed and opened again cost
  // PostgreSQL a new backend, its catalog caches and the statement cache's prepares. That churn was
  // most of an idle server's PostgreSQL CPU (issue #17).
  // Idle connections do not keep the process alive (a command, or a test run, ends when its work
  // does); a server stays up on its listener and closes the pool itself.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
    // A request that waits this long for a connection fails (503) instead of waiting for ever: the
    // safety net should transactions that each wait for a second connection ever hold all of them.
    connectionTimeoutMillis: POOL_WAIT_MS,
    allowExitOnIdle: true,
  });
  // An idle client's connection can end under us (server restart, database dropped); the pool
  // replaces it. Without a listener that would be an uncaught error.
  pool.on('error', () => undefined);
  // A checked-out client (a transaction between statements) has no pool listener: when the server
  // ends its connection (restart, admin shutdown) pg emits 'error' on the client itself, which
  // without a listener is an uncaught exception that ends the process. Its queries fail on their own.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // copy.ts: a COPY statement travels through Kysely as a token this client turns into the COPY.
    routeCopies(client);
    // Statements Wren repeats are parsed and planned once per connection (statement-cache.ts).
    if (statements) prepareRepeatedStatements(client, statements);
  });
  // WREN_TRX_POOL_CHECK=1 (a diagnostic): prints the stack of every pooled connection asked for while
  // a `transact` transaction is open in the same async context. Awaited inside the transaction, such
  // a query holds one connection while it waits for another: enough of them at once hold the whole
  // pool and wait for ever (12 parallel campaigns did, before their scan used the transaction's
  // handle). Work merely started from a transaction (a timer, an unawaited write) is printed too.
  if (process.env.WREN_TRX_POOL_CHECK) {
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    (pool as { connect: unknown }).connect = (...args: unknown[]) => {
      if (insideTransaction?.getStore()) {
        process.stderr.write(`pool connection asked for inside a transaction\n${new Error().stack}\n`);
      }
      return connect(...args);
    };
  }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    execScript: async (sql) => {
      await pool.query(sql);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
}

/**
 * PostgreSQL's wire protocol counts a statement's parameters in 16 bits (at most 65,535), so a
 * multi-row insert is cut into statements that stay well under that.
 */
const MAX_PARAMS_PER_STATEMENT = 30_000;

/** Splits rows for a multi-row insert into chunks whose parameters (rows × columns) fit one statement. */
export function chunkRows<T extends object>(rows: readonly T[]): T[][] {
  // The widest row (a loop, not a spread: a backlog can be longer than an argument list may be).
  const columns = rows.reduce((n, r) => Math.max(n, Object.keys(r).length), 1);
  const size = Math.max(1, Math.floor(MAX_PARAMS_PER_STATEMENT / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

const afterCommitQueues = new WeakMap<object, (() => void)[]>();
/**
 * WREN_TRX_POOL_CHECK's mark of code inside a `transact` (see openPostgres). Only with the diagnostic
 * on: an AsyncLocalStorage in use makes Node track every promise the process creates (its hooks
 * were ~3 % of the API's CPU in bench:api's profile).
 */
const insideTransaction = process.env.WREN_TRX_POOL_CHECK ? new AsyncLocalStorage<boolean>() : null;

/**
 * Runs `fn` in a transaction; what it registers with `afterCommit` runs once the commit succeeded
 * (and not at all after a rollback), so nobody hears of a change before it can be read.
 */
export async function transact<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  const queue: (() => void)[] = [];
  const result = await db.transaction().execute((trx) => {
    afterCommitQueues.set(trx, queue);
    return insideTransaction ? insideTransaction.run(true, () => fn(trx)) : fn(trx);
  });
  for (const run of queue) run();
  return result;
}

/**
 * `transact`, run again (up to `attempts` times) when PostgreSQL chose it as a deadlock's victim
 * (SQLSTATE 40P01): for a rare transaction that must take many rows' locks in an order other
 * writers may not share (an operator's lock of an account cancels its waiting messages while a
 * user's own cancel holds one of them). Its work is rolled back before each new attempt.
 */
export async function transactRetryingDeadlocks<T>(
  db: Db,
  fn: (trx: Db) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transact(db, fn);
    } catch (err) {
      if ((err as { code?: unknown }).code !== '40P01' || attempt >= attempts) throw err;
    }
  }
}

/** Runs `run` after the commit of the `transact` transaction `trx`; outside one, at once. */
export function afterCommit(trx: Db, run: () => void): void {
  const queue = afterCommitQueues.get(trx);
  if (queue) queue.push(run);
  else run();
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` as the text of a jsonb parameter. A string holding half of a UTF-16 surrogate pair (odd
 * UCS-2 bytes in a receipt's text) becomes U+FFFD, as node-postgres turns it in a text parameter:
 * JSON.stringify would write it as an escape PostgreSQL's jsonb rejects, failing the whole statement.
 */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && /[\uD800-\uDFFF]/.test(v) ? v.replace(LONE_SURROGATE, '\uFFFD') : v,
  );
}

/** Marks a statement whose generic plan is as good as any custom one (statement-cache.ts). */
export const genericPlanOk = sql.raw(GENERIC_PLAN_OK);

/** PostgreSQL element types for `insertUnnest` columns. */
export type PgElementType = 'uuid' | 'text' | 'integer' | 'smallint' | 'bigint' | 'boolean' | 'timestamptz';

/**
 * `INSERT INTO table (columns) SELECT … FROM unnest($1::type[], $2::type[], …)`: one array parameter
 * per column whatever the number of rows. PostgreSQL parses and plans a short statement instead of
 * one with rows × columns placeholders, and the 65,535-parameter limit does not apply. Append
 * `RETURNING …` with `sql\`${insertUnnest(…)} RETURNING …\``. Marked `genericPlanOk`: its plan does
 * not depend on the arrays (rows are routed to partitions as they are inserted), so a statement made
 * of it is planned once per connection.
 *
 * `shared`: groups of columns a caller's rows usually have in common (a send's account and sender;
 * its text and times). When every row has the same values in a group's columns, each of them is one
 * scalar parameter instead of an array of copies: for a request of 100 recipients the copies were
 * 80 % of the bytes serialised, sent and parsed (bench:api). A group is all scalars or all arrays,
 * so a call site has a few statement texts (2 per group, each prepared and planned once per
 * connection), not one per subset of columns that happen to vary.
 */
export function insertUnnest<T extends keyof DB, C extends keyof Insertable<DB[T]> & string>(
  table: T,
  columns: Record<C, PgElementType>,
  rows: readonly { [K in C]: Insertable<DB[T]>[K] }[],
  shared: readonly (readonly NoInfer<C>[])[] = [],
) {
  const names = Object.keys(columns) as C[];
  const valuesOf = (name: C) => rows.map((row) => row[name] ?? null);
  const scalars = new Set<C>(
    rows.length === 0 ? [] : shared.filter((group) => group.every((name) => oneValue(valuesOf(name)))).flat(),
  );
  // The rows' count comes from the arrays: at least one column stays one.
  const unnested = names.filter((name) => !scalars.has(name));
  const arrays = unnested.map((name) => sql`${sql.val(valuesOf(name))}::${sql.raw(columns[name])}[]`);
  const selected = names.map((name) =>
    scalars.has(name)
      ? sql`${sql.val(rows[0]?.[name] ?? null)}::${sql.raw(columns[name])}`
      : sql.ref(`u.${name}`),
  );
  return sql`${genericPlanOk} INSERT INTO ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))}) SELECT ${sql.join(selected)} FROM unnest(${sql.join(arrays)}) AS u(${sql.join(unnested.map((n) => sql.id(n)))})`;
}

/** Every value the same (a Date by its instant). */
function oneValue(values: readonly unknown[]) {
  const key = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  const first = key(values[0]);
  return values.every((v) => key(v) === first);
}
