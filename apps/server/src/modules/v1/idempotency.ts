import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { V1RequestError } from './v1-errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL_HOURS = 24;
const WAIT_MS = 15_000;
const KEY_RULE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export const requestHash = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method} ${path}\n${stable(body)}`)
    .digest('hex');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stripe-style idempotency. The first request with a key inserts a pending record and runs; its
 * answer (success or a 4xx) is stored and replayed for 24 h to a retry with the same body. The same
 * key with another body or endpoint is a 422. Requests that arrive while the first still runs wait
 * for its answer (up to 15 s, then 409), so concurrent retries run once. A 5xx is not stored: the
 * record is dropped and a retry runs again.
 */
export async function idempotent(
  db: Db,
  input: { accountId: string; key: string | undefined; method: string; path: string; body: unknown },
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (input.key === undefined) return { ...(await run()), replayed: false };
  if (!KEY_RULE.test(input.key)) {
    throw new V1RequestError(
      'parameter_invalid',
      'Idempotency-Key must be 1-255 visible ASCII characters (a UUID is a good choice)',
      'Idempotency-Key',
    );
  }
  const hash = requestHash(input.method, input.path, input.body);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        account_id: input.accountId,
        key: input.key,
        method: input.method,
        path: input.path,
        request_hash: hash,
        response_status: null,
        response_body: null,
      })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) {
      let result: StoredResponse;
      try {
        result = await run();
      } catch (err) {
        await forget(db, input.accountId, input.key);
        throw err;
      }
      if (result.status >= 500) await forget(db, input.accountId, input.key);
      else {
        await db
          .updateTable('idempotency_keys')
          .set({ response_status: result.status, response_body: JSON.stringify(result.body) })
          .where('account_id', '=', input.accountId)
          .where('key', '=', input.key)
          .execute();
      }
      return { ...result, replayed: false };
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .select(sql<boolean>`created_at < now() - make_interval(hours => ${TTL_HOURS})`.as('stale'))
      .where('account_id', '=', input.accountId)
      .where('key', '=', input.key)
      .executeTakeFirst();
    if (!row) continue; // the first request failed and dropped it: try to be the first
    if (row.stale) {
      await db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', input.accountId)
        .where('key', '=', input.key)
        .where('created_at', '=', row.created_at)
        .execute();
      continue;
    }
    if (row.request_hash !== hash) {
      throw new V1RequestError(
        'idempotency_key_reused',
        `This Idempotency-Key was already used for ${row.method} ${row.path} with a different body; use a new key for a new request`,
        'Idempotency-Key',
      );
    }
    if (row.response_status !== null) {
      return { status: row.response_status, body: row.response_body, replayed: true };
    }
    if (Date.now() > deadline) {
      throw new V1RequestError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still running; retry shortly',
        'Idempotency-Key',
      );
    }
    await sleep(25);
  }
}

async function forget(db: Db, accountId: string, key: string) {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .execute();
}

/** Drops records older than 24 h (periodic). */
export async function purgeIdempotencyKeys(db: Db) {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${TTL_HOURS + 1})`)
    .execute();
}
