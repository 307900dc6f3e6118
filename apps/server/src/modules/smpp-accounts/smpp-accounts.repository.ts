import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { SmppServerTables } from '../../db/schema-smpp-server';
import type { Db } from '../../platform/db';

type AccountsTable = SmppServerTables['smpp_accounts'];
export type SmppAccountRow = Selectable<AccountsTable>;
export type SmppBindRow = Selectable<SmppServerTables['smpp_binds']>;

/** A bind row not refreshed for this long belongs to a node that is gone. */
export const BIND_STALE_SECONDS = 30;

export async function insertAccount(db: Db, row: Insertable<AccountsTable>) {
  return db.insertInto('smpp_accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listAccounts(db: Db, accountId: string) {
  return db
    .selectFrom('smpp_accounts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findAccount(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('smpp_accounts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A login by its system_id (case-sensitive, as SMPP compares it), with its account's locks. */
export async function findBySystemId(db: Db, systemId: string) {
  return db
    .selectFrom('smpp_accounts as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .selectAll('s')
    .select(['a.locked_at as account_locked_at', 'a.parent_locked_at as account_parent_locked_at'])
    .where('s.system_id', '=', systemId)
    .executeTakeFirst();
}

export async function updateAccount(db: Db, accountId: string, id: string, patch: Updateable<AccountsTable>) {
  return db
    .updateTable('smpp_accounts')
    .set({ ...patch, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteAccount(db: Db, accountId: string, id: string) {
  const r = await db
    .deleteFrom('smpp_accounts')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function recordBind(db: Db, id: string, ip: string) {
  await db
    .updateTable('smpp_accounts')
    .set({ last_bind_at: new Date(), last_bind_ip: ip })
    .where('id', '=', id)
    .execute();
}

/** Per SMPP account: outbox rows waiting and live binds (rows seen lately). */
export async function countsOf(db: Db, ids: readonly string[]) {
  const waiting = new Map<string, number>();
  const binds = new Map<string, number>();
  if (ids.length === 0) return { waiting, binds };
  const [w, b] = await Promise.all([
    db
      .selectFrom('smpp_outbox')
      .select(['smpp_account_id', sql<number>`count(*)::int`.as('n')])
      .where('smpp_account_id', 'in', ids)
      .groupBy('smpp_account_id')
      .execute(),
    db
      .selectFrom('smpp_binds')
      .select(['smpp_account_id', sql<number>`count(*)::int`.as('n')])
      .where('smpp_account_id', 'in', ids)
      .where('seen_at', '>', sql<Date>`now() - make_interval(secs => ${BIND_STALE_SECONDS})`)
      .groupBy('smpp_account_id')
      .execute(),
  ]);
  for (const r of w) waiting.set(r.smpp_account_id, r.n);
  for (const r of b) binds.set(r.smpp_account_id, r.n);
  return { waiting, binds };
}

export async function listBinds(db: Db, smppAccountId: string) {
  return db
    .selectFrom('smpp_binds')
    .selectAll()
    .where('smpp_account_id', '=', smppAccountId)
    .where('seen_at', '>', sql<Date>`now() - make_interval(secs => ${BIND_STALE_SECONDS})`)
    .orderBy('bound_at')
    .execute();
}
