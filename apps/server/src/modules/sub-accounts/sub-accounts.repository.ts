import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/** The ledger kind of both entries of a parent ↔ child transfer (one reference for the two). */
export const TRANSFER_KIND = 'subaccount_transfer';

/** The account's own row as the sub-accounts rules need it. */
export async function accountOf(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .select([
      'id',
      'name',
      'currency',
      'parent_account_id',
      'parent_locked_at',
      'parent_locked_reason',
      'child_markup_bp',
    ])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export async function insertChild(trx: Db, c: { name: string; currency: string; parentId: string }) {
  return trx
    .insertInto('accounts')
    .values({ name: c.name, currency: c.currency, parent_account_id: c.parentId })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

const summaryColumns = (db: Db) =>
  db.selectFrom('accounts as a').select([
    'a.id',
    'a.name',
    'a.balance_minor',
    'a.currency',
    'a.parent_locked_at',
    'a.parent_locked_reason',
    'a.child_markup_bp',
    'a.created_at',
    sql<number>`(SELECT count(*)::int FROM account_members m WHERE m.account_id = a.id)`.as('members'),
    sql<string | null>`(SELECT i.email FROM account_invites i
          WHERE i.account_id = a.id AND i.role = 'owner' AND i.accepted_at IS NULL AND i.revoked_at IS NULL
            AND i.expires_at > now() ORDER BY i.created_at DESC LIMIT 1)`.as('pending_owner_email'),
  ]);

export type ChildRow = NonNullable<Awaited<ReturnType<typeof findChild>>>;

/** The parent's children, newest first, after the (created_at, id) cursor. */
export async function listChildren(
  db: Db,
  parentId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  let q = summaryColumns(db).where('a.parent_account_id', '=', parentId);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('a.created_at', '<', after.createdAt),
        eb.and([eb('a.created_at', '=', after.createdAt), eb('a.id', '<', after.id)]),
      ]),
    );
  }
  return q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
}

/** One child of this parent (undefined for any other account: another's child, the parent itself). */
export async function findChild(db: Db, parentId: string, childId: string) {
  return summaryColumns(db)
    .where('a.id', '=', childId)
    .where('a.parent_account_id', '=', parentId)
    .executeTakeFirst();
}

/** Locks the child's row (lock, unlock, price changes: one at a time per child). */
export async function lockChildRow(trx: Db, parentId: string, childId: string) {
  return trx
    .selectFrom('accounts')
    .select(['id', 'name', 'parent_locked_at', 'child_markup_bp'])
    .where('id', '=', childId)
    .where('parent_account_id', '=', parentId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export async function setParentLock(trx: Db, childId: string, lock: { at: Date; reason: string } | null) {
  await trx
    .updateTable('accounts')
    .set({ parent_locked_at: lock?.at ?? null, parent_locked_reason: lock?.reason ?? null })
    .where('id', '=', childId)
    .execute();
}

export async function countryMarkups(db: Db, childId: string) {
  return db
    .selectFrom('sub_account_country_markups')
    .select(['country', 'markup_bp'])
    .where('account_id', '=', childId)
    .orderBy('country')
    .execute();
}

export async function setPricing(
  trx: Db,
  childId: string,
  markupBp: number,
  countries: readonly { country: string; markupBp: number }[],
) {
  await trx.updateTable('accounts').set({ child_markup_bp: markupBp }).where('id', '=', childId).execute();
  await trx.deleteFrom('sub_account_country_markups').where('account_id', '=', childId).execute();
  if (countries.length) {
    await trx
      .insertInto('sub_account_country_markups')
      .values(countries.map((c) => ({ account_id: childId, country: c.country, markup_bp: c.markupBp })))
      .execute();
  }
}

/** The child's last transfers with its parent (its own ledger entries of TRANSFER_KIND). */
export async function childTransfers(db: Db, childId: string, limit: number) {
  return db
    .selectFrom('ledger_entries')
    .select(['reference', 'amount_minor', 'note', 'created_at'])
    .where('account_id', '=', childId)
    .where('kind', '=', TRANSFER_KIND)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
