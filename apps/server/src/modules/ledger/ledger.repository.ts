import { type RawBuilder, sql } from 'kysely';
import { type Db, genericPlanOk, insertUnnest } from '../../platform/db';

export interface LedgerEntryInput {
  accountId: string;
  amountMinor: number;
  kind: string;
  reference?: string | null;
  note?: string | null;
}

/**
 * Locks the account row for the rest of the transaction and returns its cached balance (and whether
 * an operator locked the account, or its parent a child: a locked account's sends are refused). FOR NO KEY UPDATE: it serialises
 * every balance change, but not the inserts that reference the account (their foreign-key checks
 * take KEY SHARE, which FOR UPDATE would wait for, and two sends that each inserted first would then
 * deadlock on each other's check).
 */
export async function lockAccount(trx: Db, accountId: string) {
  // A child locked by its parent (sub-accounts, migration 0034) cannot send either.
  const lockedAt = sql<Date | null>`coalesce(locked_at, parent_locked_at)`.as('locked_at');
  return trx
    .selectFrom('accounts')
    .select(['id', 'balance_minor', 'currency', lockedAt])
    .where('id', '=', accountId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** `INSERT INTO ledger_entries … SELECT * FROM unnest(…)` for these entries. */
const entriesInsert = (entries: readonly LedgerEntryInput[], currency: string) =>
  insertUnnest(
    'ledger_entries',
    {
      account_id: 'uuid',
      amount_minor: 'bigint',
      currency: 'text',
      kind: 'text',
      reference: 'text',
      note: 'text',
    },
    entries.map((e) => ({
      account_id: e.accountId,
      amount_minor: e.amountMinor,
      currency,
      kind: e.kind,
      reference: e.reference ?? null,
      note: e.note ?? null,
    })),
  );

/**
 * Inserts entries whose (account, kind, reference) is new, in one statement; returns the ones
 * inserted (a reference already posted is skipped: refunds are applied exactly once).
 */
export async function insertNewEntries(trx: Db, entries: LedgerEntryInput[], currency: string) {
  if (entries.length === 0) return [];
  const res = await sql<{
    reference: string | null;
    amount_minor: number;
  }>`${entriesInsert(entries, currency)} ON CONFLICT (account_id, kind, reference) WHERE reference IS NOT NULL DO NOTHING
    RETURNING reference, amount_minor`.execute(trx);
  return res.rows;
}

/**
 * Appends entries and moves the cached balance by `delta` in one statement (the caller holds the
 * account row lock and has decided the entries): one round trip where two were.
 */
export async function appendAndAddToBalance(
  trx: Db,
  accountId: string,
  entries: LedgerEntryInput[],
  currency: string,
  delta: number,
) {
  const res = await sql<{ balance_minor: number }>`
    WITH appended AS (${entriesInsert(entries, currency)})
    UPDATE accounts SET balance_minor = balance_minor + ${delta}
     WHERE id = ${accountId}::uuid
    RETURNING balance_minor`.execute(trx);
  const row = res.rows[0];
  if (!row) throw new Error(`account ${accountId} vanished under its lock`);
  return { balance_minor: Number(row.balance_minor) };
}

/**
 * Debits every entry or none, in one statement: the account row is updated only if its balance
 * covers `total` (the sum of the entries' amounts, as a positive number), and the entries are
 * inserted only with it. The row lock is taken by the UPDATE itself (which, in READ COMMITTED,
 * re-checks the balance on the newest row version), so nothing waits for another round trip while
 * holding it. `null`: the balance did not cover the total, or the account is locked by an operator,
 * and nothing was written.
 */
export async function debitAllOrNothing(
  trx: Db,
  accountId: string,
  entries: readonly Omit<LedgerEntryInput, 'accountId'>[],
  total: number,
) {
  const res = await sql<{ start_minor: string | number; currency: string }>`${genericPlanOk}
    WITH ${debitAllOrNothingCtes(accountId, entries, total)}
    SELECT start_minor, currency FROM debited`.execute(trx);
  const row = res.rows[0];
  return row ? { startMinor: Number(row.start_minor), currency: row.currency } : null;
}

/**
 * `debitAllOrNothing` as the CTEs of a caller's statement: `debited (start_minor, currency)` has one
 * row when the balance covered `total`, none otherwise, and the entries (`appended`) are inserted
 * only with it. `after`: a condition of the caller's that PostgreSQL evaluates before it reads (and
 * locks) the account's row, e.g. one that reads the caller's inserts, so they run first.
 */
export function debitAllOrNothingCtes(
  accountId: string,
  entries: readonly Omit<LedgerEntryInput, 'accountId'>[],
  total: number,
  after: RawBuilder<unknown> = sql`true`,
) {
  return sql`debited AS (
      UPDATE accounts SET balance_minor = balance_minor - ${total}::bigint
       WHERE id = ${accountId}::uuid AND balance_minor >= ${total}::bigint AND locked_at IS NULL AND parent_locked_at IS NULL AND ${after}
   RETURNING balance_minor + ${total}::bigint AS start_minor, currency),
    appended AS (
      INSERT INTO ledger_entries (account_id, amount_minor, currency, kind, reference, note)
      SELECT ${accountId}::uuid, e.amount_minor, d.currency, e.kind, e.reference, e.note
        FROM debited d,
             unnest(${entries.map((e) => e.amountMinor)}::bigint[], ${entries.map((e) => e.kind)}::text[],
                    ${entries.map((e) => e.reference ?? null)}::text[], ${entries.map((e) => e.note ?? null)}::text[])
               AS e(amount_minor, kind, reference, note))`;
}

/**
 * One posting: its entry unless (account, kind, reference) was posted already, and the balance
 * moved by what was inserted, in one statement. `null` when the reference was posted before.
 */
export async function postEntry(trx: Db, e: LedgerEntryInput & { currency: string }) {
  const res = await sql<{ balance_minor: number }>`
    WITH posted AS (
      INSERT INTO ledger_entries (account_id, amount_minor, currency, kind, reference, note)
      VALUES (${e.accountId}::uuid, ${e.amountMinor}::bigint, ${e.currency}, ${e.kind}, ${e.reference ?? null}, ${e.note ?? null})
      ON CONFLICT (account_id, kind, reference) WHERE reference IS NOT NULL DO NOTHING
      RETURNING amount_minor)
    UPDATE accounts a SET balance_minor = a.balance_minor + p.amount_minor
      FROM posted p
     WHERE a.id = ${e.accountId}::uuid
    RETURNING a.balance_minor`.execute(trx);
  const row = res.rows[0];
  return row ? { balance_minor: Number(row.balance_minor) } : null;
}

export async function addToBalance(trx: Db, accountId: string, amountMinor: number) {
  return trx
    .updateTable('accounts')
    .set({ balance_minor: sql`balance_minor + ${amountMinor}` })
    .where('id', '=', accountId)
    .returning(['balance_minor'])
    .executeTakeFirstOrThrow();
}

export async function getBalance(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['balance_minor', 'currency'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export async function sumEntries(db: Db, accountId: string) {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<number>`coalesce(sum(amount_minor), 0)::bigint`.as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
