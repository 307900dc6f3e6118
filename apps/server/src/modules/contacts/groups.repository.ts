import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const columns = ['id', 'name', 'contact_count', 'created_at', 'updated_at'] as const;

export type GroupRow = Awaited<ReturnType<typeof findGroup>> & {};

export async function listGroups(db: Db, accountId: string) {
  return db
    .selectFrom('contact_groups')
    .select(columns)
    .where('account_id', '=', accountId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function findGroup(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('contact_groups')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Inserts unless the account has a group of that name (any case); then returns undefined. */
export async function insertGroup(db: Db, accountId: string, name: string) {
  return db
    .insertInto('contact_groups')
    .values({ account_id: accountId, name, updated_at: new Date() })
    .onConflict((oc) => oc.doNothing())
    .returning(columns)
    .executeTakeFirst();
}

export async function renameGroup(db: Db, accountId: string, id: string, name: string) {
  return db
    .updateTable('contact_groups')
    .set({ name, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteGroup(db: Db, accountId: string, id: string) {
  const r = await db
    .deleteFrom('contact_groups')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Moves the cached contact count; call in the transaction that inserted or deleted the contacts. */
export async function adjustContactCount(trx: Db, groupId: string, delta: number) {
  if (delta === 0) return;
  await trx
    .updateTable('contact_groups')
    .set({ contact_count: sql`contact_count + ${delta}` })
    .where('id', '=', groupId)
    .execute();
}
