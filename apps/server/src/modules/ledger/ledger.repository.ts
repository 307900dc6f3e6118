import { sql } from 'kysely';
import { type Db, insertUnnest } from '../../platform/db';

export interface LedgerEntryInput {
  accountId: string;
  amountMinor: number;
  kind: string;
  reference?: string | null;
  note?: string | null;
}

/** Locks the account row for the rest of the transaction and returns its cached balance. */
export async function lockAccount(trx: Db, accountId: string) {
  return trx
    .selectFrom('accounts')
    .select(['id', 'balance_minor', 'currency'])
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertEntry(trx: Db, e: LedgerEntryInput & { currency: string }) {
  return trx
    .insertInto('ledger_entries')
    .values({
      account_id: e.accountId,
      amount_minor: e.amountMinor,
      currency: e.currency,
      kind: e.kind,
      reference: e.reference ?? null,
      note: e.note ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'kind', 'reference']).where('reference', 'is not', null).doNothing(),
    )
    .returning(['id'])
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

export async function insertEntries(trx: Db, entries: LedgerEntryInput[], currency: string) {
  if (entries.length === 0) return;
  await entriesInsert(entries, currency).execute(trx);
}

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
