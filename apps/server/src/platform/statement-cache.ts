import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * NAMED PREPARED STATEMENTS FOR THE STATEMENTS WREN REPEATS.
 *
 * On by default; DATABASE_PREPARE=false turns it off (a connection pooler in transaction mode).
 *
 * Kysely sends every statement unnamed, so PostgreSQL parses and plans it on every execution. For
 * the hot statements that planning costs more than running them: the OTP check's one statement
 * plans in 0.3–1 ms and runs in 0.15 ms. A named statement is parsed once per connection, and after
 * five executions PostgreSQL's plan cache keeps a generic plan when it costs no more than the custom
 * ones (`plan_cache_mode = auto`), so planning drops to about 0.03 ms.
 *
 * Which statements: those with parameters (but not EXPLAIN, which must show the plan of the values
 * it is given) whose exact text has run `minUses` times in this process
 * (so one-off statements are never prepared), up to `maxStatements` texts (each connection holds at
 * most that many plans; statements beyond the cap run unnamed as before). The name is a hash of
 * the text, so it is the same on every connection, and no two texts share one.
 *
 * Statements with an array parameter or a `LIMIT $n` keep custom plans: a generic plan cannot see the
 * array's length (it guesses) nor the limit's value, and with `LIMIT $n` the dispatcher's claim chose
 * to sort the whole send queue on every claim (bench:pipeline, 40k messages draining: PostgreSQL CPU
 * 2,203 µs per message; with custom plans for it, 279 µs). A statement whose text carries
 * GENERIC_PLAN_OK (`genericPlanOk` in SQL) is prepared even with array parameters: one whose every
 * plan reads the same rows whatever the arrays hold (an insert of unnested arrays, a lookup of the
 * given keys through a unique index, no partitioned table to prune). At one message per request,
 * planning such statements cost PostgreSQL about 45 µs per message (pg_stat_statements,
 * bench:pipeline): a custom plan for every batch of a few messages. PostgreSQL still compares the
 * generic plan with the custom ones before it keeps it (`plan_cache_mode = auto`).
 *
 * A statement whose result columns change under it (a migration adding a column to a table read
 * with `*`) fails once with "cached plan must not change result type"; its text is then never named
 * again, and outside a transaction the call is retried unnamed, so the caller does not see it.
 */
export interface StatementCacheOptions {
  /** Executions of a text before it is prepared. */
  minUses?: number;
  /** Texts prepared at most (process-wide, so also per connection). */
  maxStatements?: number;
  /** Longer texts (and statements with more parameters than `maxParams`) run unnamed. */
  maxTextLength?: number;
  maxParams?: number;
}

export interface StatementCache {
  /** The statement name for `text`, once it has run often enough; counts this use. */
  nameFor(text: string, params: number): string | undefined;
  /** Never name `text` again. */
  refuse(text: string): void;
  /** How many texts are named. */
  readonly size: number;
}

/** The mark of a statement whose generic plan is as good as any custom one (see the module comment). */
export const GENERIC_PLAN_OK = '/* plan: generic ok */';

/** How many distinct texts are counted before the counts start over (bounds the memory). */
const MAX_COUNTED = 10_000;

export function createStatementCache(opts: StatementCacheOptions = {}): StatementCache {
  const minUses = opts.minUses ?? 3;
  const maxStatements = opts.maxStatements ?? 256;
  const maxTextLength = opts.maxTextLength ?? 16_384;
  const maxParams = opts.maxParams ?? 2_000;
  const names = new Map<string, string>();
  const uses = new Map<string, number>();
  const refused = new Set<string>();
  return {
    nameFor(text, params) {
      const named = names.get(text);
      if (named !== undefined) return named;
      if (params === 0 || params > maxParams || text.length > maxTextLength) return undefined;
      // EXPLAIN shows the plan of the values given; a prepared one would show a generic plan.
      if (/^\s*explain\b/i.test(text)) return undefined;
      if (names.size >= maxStatements || refused.has(text)) return undefined;
      const n = (uses.get(text) ?? 0) + 1;
      if (n < minUses) {
        if (uses.size >= MAX_COUNTED) uses.clear();
        uses.set(text, n);
        return undefined;
      }
      uses.delete(text);
      const name = `w_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
      names.set(text, name);
      return name;
    },
    refuse(text) {
      names.delete(text);
      refused.add(text);
    },
    get size() {
      return names.size;
    },
  };
}

/** PostgreSQL's error when a prepared statement's result columns changed under it. */
const resultTypeChanged = (err: unknown) =>
  (err as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(String(err));

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Makes `client.query(text, values)` (the call Kysely and `pool.query` make) run as a named
 * statement when the cache names its text. Every other call shape (config objects, cursors,
 * callbacks, statements without parameters) passes through unchanged.
 */
export function prepareRepeatedStatements(client: pg.ClientBase, cache: StatementCache) {
  const original = client.query.bind(client) as QueryFn;
  const patched: QueryFn = (...args) => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined)
      return original(...args);
    // A generic plan cannot see how long an array parameter is (it guesses 10 elements), nor a
    // LIMIT's value: such statements keep custom plans (see the module comment).
    const name =
      /\blimit\s+\$\d/i.test(text) || (values.some(Array.isArray) && !text.includes(GENERIC_PLAN_OK))
        ? undefined
        : cache.nameFor(text, values.length);
    if (name === undefined) return original(text, values);
    return (original({ name, text, values }) as Promise<pg.QueryResult>).catch((err: unknown) => {
      if (!resultTypeChanged(err)) throw err;
      cache.refuse(text);
      // Outside a transaction nothing was undone: run it again, unnamed.
      if ((client as { getTransactionStatus?: () => string | null }).getTransactionStatus?.() !== 'I')
        throw err;
      return original(text, values);
    });
  };
  (client as unknown as { query: QueryFn }).query = patched;
}
