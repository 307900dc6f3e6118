import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { errorCodes, toV1Error, V1RequestError } from './v1-errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL_HOURS = 24;
const WAIT_MS = 15_000;
const KEY_RULE = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header of an operation's schema (documented in OpenAPI). */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'Any unique string (a UUID): a retry with the same key and body replays the first answer for 24 h',
    ),
});

export interface StoredResponse {
  status: number;
  body: unknown;
  /** The answer was already stored with the work it answers (in the same transaction). */
  stored?: boolean;
}

/** The pending record a run owns: its writes that answer the request must name it (a fence). */
export interface IdempotencyClaim {
  accountId: string;
  key: string;
  createdAt: Date;
}

/** A pending record older than this has lost its request (a crashed node): a retry takes it over. */
const ABANDONED_MS = 120_000;

/**
 * Stores the answers of claimed requests inside the transaction of the work they answer (the send's):
 * a commit means the answer is stored, a rollback that nothing happened. A claim that was taken over
 * (its record replaced) fails the transaction, so only one of the two requests can send.
 */
export async function storeAnswers(
  trx: Db,
  answers: { claim: IdempotencyClaim; status: number; body: unknown }[],
) {
  if (answers.length === 0) return;
  const { rows } = await sql<{ key: string }>`
    UPDATE idempotency_keys k
       SET response_status = v.status, response_body = v.body
      FROM unnest(${answers.map((a) => a.claim.accountId)}::uuid[], ${answers.map((a) => a.claim.key)}::text[],
                  ${answers.map((a) => a.claim.createdAt)}::timestamptz[], ${answers.map((a) => a.status)}::int[],
                  ${answers.map((a) => JSON.stringify(a.body))}::jsonb[]) AS v(account_id, key, created_at, status, body)
     WHERE k.account_id = v.account_id AND k.key = v.key AND k.created_at = v.created_at
       AND k.response_status IS NULL
    RETURNING k.key`.execute(trx);
  if (rows.length !== answers.length) {
    throw new Error('An Idempotency-Key record was taken over by a retry; this request is not carried out');
  }
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
  run: (claim: IdempotencyClaim | null) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (input.key === undefined) return { ...(await run(null)), replayed: false };
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
      .returning(['key', 'created_at'])
      .executeTakeFirst();
    if (inserted) {
      const claim = { accountId: input.accountId, key: input.key, createdAt: inserted.created_at };
      let result: StoredResponse;
      try {
        result = await run(claim);
      } catch (err) {
        await forget(db, claim);
        throw err;
      }
      if (result.status >= 500) await forget(db, claim);
      else if (!result.stored) {
        await db
          .updateTable('idempotency_keys')
          .set({ response_status: result.status, response_body: JSON.stringify(result.body) })
          .where('account_id', '=', input.accountId)
          .where('key', '=', input.key)
          .where('created_at', '=', claim.createdAt)
          .execute();
      }
      return { status: result.status, body: result.body, replayed: false };
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .select(sql<boolean>`created_at < now() - make_interval(hours => ${TTL_HOURS})`.as('stale'))
      .where('account_id', '=', input.accountId)
      .where('key', '=', input.key)
      .executeTakeFirst();
    if (!row) continue; // the first request failed and dropped it: try to be the first
    // Stale (24 h), or pending far longer than any request runs: its request died (its work, if
    // any had committed, would have stored the answer with it), so this request takes it over.
    if (row.stale || (row.response_status === null && Date.now() - row.created_at.getTime() > ABANDONED_MS)) {
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

async function forget(db: Db, claim: IdempotencyClaim) {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.createdAt)
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

/**
 * Runs a /v1 operation under the request's Idempotency-Key and answers it. A 4xx the work raises is
 * an answer like a success: stored and replayed to a retry with the same key. A 429 is not (the
 * retry after Retry-After must run), nor a 5xx; both go on to the error handler with their headers.
 */
export async function replyIdempotent(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { accountId: string; path: string; body: unknown },
  work: (claim: IdempotencyClaim | null) => Promise<StoredResponse>,
) {
  const header = req.headers[IDEMPOTENCY_HEADER];
  const res = await idempotent(
    db,
    { ...input, key: typeof header === 'string' ? header : undefined, method: req.method },
    async (claim) => {
      try {
        return await work(claim);
      } catch (err) {
        const mapped = toV1Error(err);
        if (!mapped || mapped.status >= 500 || mapped.status === 429) throw err;
        errorCodes.set(req, mapped.body.error.code);
        return { status: mapped.status, body: mapped.body };
      }
    },
  );
  if (res.replayed) void reply.header('Idempotent-Replayed', 'true');
  return reply.status(res.status).send(res.body);
}
