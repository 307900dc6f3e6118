import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** The first user of each account (the one who registered it). */
const firstUser = (column: 'username' | 'email' | 'phone') =>
  sql<
    string | null
  >`(SELECT u.${sql.ref(column)} FROM users u WHERE u.account_id = a.id ORDER BY u.created_at, u.id LIMIT 1)`;

const lastActivity = sql<Date | null>`(SELECT max(s.last_used_at) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.account_id = a.id)`;

function accountColumns(db: Db) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('rate_plans as p', 'p.id', 'a.rate_plan_id')
    .select([
      'a.id',
      'a.name',
      'a.balance_minor',
      'a.currency',
      'a.rate_plan_id',
      sql<string | null>`coalesce(p.name, (SELECT d.name FROM rate_plans d WHERE d.is_default))`.as(
        'rate_plan_name',
      ),
      'a.locked_at',
      'a.locked_reason',
      'a.max_per_second',
      'a.daily_cap',
      'a.allowed_countries',
      'a.created_at',
      firstUser('username').as('username'),
      firstUser('email').as('email'),
      firstUser('phone').as('phone'),
      lastActivity.as('last_activity_at'),
      // Sub-accounts (migration 0034): the parent of a child, the number of a parent's children.
      'a.parent_account_id',
      sql<string | null>`(SELECT pa.name FROM accounts pa WHERE pa.id = a.parent_account_id)`.as(
        'parent_name',
      ),
      sql<number>`(SELECT count(*)::int FROM accounts c WHERE c.parent_account_id = a.id)`.as(
        'sub_account_count',
      ),
    ]);
}

/** A parent's children (sub-accounts), newest first. */
export async function subAccountsOf(db: Db, parentId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'balance_minor', 'currency', 'parent_locked_at'])
    .where('parent_account_id', '=', parentId)
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute();
}

export type AccountRow = Awaited<ReturnType<typeof findAccount>> & object;

export async function searchAccounts(
  db: Db,
  f: { q?: string; status?: 'active' | 'locked'; after?: { t: string; id: string }; limit: number },
) {
  let q = accountColumns(db);
  if (f.q) {
    const pattern = `%${likeEscape(f.q.toLowerCase())}%`;
    // A phone search only when the text looks like a phone number (digits, spaces, + - ( ) .).
    const digits = /^[\d\s+().-]+$/.test(f.q) ? f.q.replace(/[^\d]/g, '') : '';
    // The matching accounts first (each LIKE on its pg_trgm index, 0013_admin_search.sql), then the
    // page of them: a correlated EXISTS per account would read every user row.
    q = q.where('a.id', 'in', (eb) =>
      eb
        .selectFrom('accounts as na')
        .select('na.id as id')
        .where(sql<boolean>`lower(na.name) LIKE ${pattern}`)
        .unionAll(
          eb
            .selectFrom('users as su')
            .select('su.account_id as id')
            .where((w) =>
              w.or([
                w(sql`lower(su.username)`, 'like', pattern),
                w(sql`lower(su.email)`, 'like', pattern),
                ...(digits.length >= 3 ? [w('su.phone', 'like', `%${digits}%`)] : []),
              ]),
            ),
        ),
    );
  }
  if (f.status === 'locked') q = q.where('a.locked_at', 'is not', null);
  if (f.status === 'active') q = q.where('a.locked_at', 'is', null);
  if (f.after) {
    const { t, id } = f.after;
    q = q.where(sql<boolean>`(a.created_at, a.id) < (${t}::timestamptz, ${id}::uuid)`);
  }
  return q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(f.limit).execute();
}

export async function findAccount(db: Db, id: string) {
  return accountColumns(db).where('a.id', '=', id).executeTakeFirst();
}

export async function accountUsers(db: Db, accountId: string) {
  return db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.username',
      'u.name',
      'u.email',
      'u.phone',
      'u.role',
      'u.created_at',
      sql<Date | null>`(SELECT max(s.last_used_at) FROM sessions s WHERE s.user_id = u.id)`.as(
        'last_activity_at',
      ),
      sql<number>`(SELECT count(*)::int FROM sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL)`.as(
        'active_sessions',
      ),
    ])
    .where('u.account_id', '=', accountId)
    .orderBy('u.created_at')
    .orderBy('u.id')
    .execute();
}

/**
 * Locks the account's row for an operator's change. FOR NO KEY UPDATE, as the ledger takes it: a
 * send's inserts lock their account FOR KEY SHARE (migration 0023), which FOR UPDATE would wait for,
 * so a campaign's materialiser holding its campaign row could deadlock with a lock that waits for it.
 */
export async function lockAccountRow(db: Db, id: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'locked_at', 'rate_plan_id'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export async function setLock(db: Db, id: string, lock: { at: Date; reason: string } | null) {
  await db
    .updateTable('accounts')
    .set({ locked_at: lock?.at ?? null, locked_reason: lock?.reason ?? null })
    .where('id', '=', id)
    .execute();
}

export async function ledgerPage(db: Db, accountId: string, beforeId: number | undefined, limit: number) {
  let q = db
    .selectFrom('ledger_entries')
    .select(['id', 'amount_minor', 'currency', 'kind', 'reference', 'note', 'created_at'])
    .where('account_id', '=', accountId);
  if (beforeId !== undefined) q = q.where('id', '<', beforeId);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

export async function findEntryByReference(db: Db, accountId: string, kind: string, reference: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'amount_minor', 'currency', 'kind', 'reference', 'note', 'created_at'])
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('reference', '=', reference)
    .executeTakeFirstOrThrow();
}

/** The user whose username or email is given (any case), with their account's lock, for the login hook. */
export async function accountOfUsername(db: Db, username: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.account_id', 'a.locked_at'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(u.username)`, '=', username.toLowerCase()),
        eb(sql<string>`lower(u.email)`, '=', username.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
}

/** Messages counted against the account's daily cap this UTC day (account_send_counters; 0: none yet). */
export async function acceptedToday(db: Db, accountId: string) {
  const r = await sql<{ n: number }>`
    SELECT accepted AS n FROM account_send_counters
     WHERE account_id = ${accountId}::uuid AND day = (now() AT TIME ZONE 'UTC')::date`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
