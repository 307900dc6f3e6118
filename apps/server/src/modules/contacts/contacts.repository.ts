import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const columns = [
  'c.id',
  'c.group_id',
  'c.phone',
  'c.name',
  'c.fields',
  'c.created_at',
  'c.updated_at',
] as const;

export type ContactRow = Awaited<ReturnType<typeof findContact>> & {};

export type ContactKey = { s: 'c'; t: string; id: string } | { s: 'n'; n: string; id: string };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of a group's contacts in keyset order: newest first (created_at, id), or by name
 * (lower(name), id). `q` matches a name anywhere (any case) or phone digits anywhere.
 */
export async function listContacts(
  db: Db,
  p: {
    accountId: string;
    groupId: string;
    q?: string;
    sort: 'created' | 'name';
    after?: ContactKey;
    limit: number;
  },
) {
  let query = db
    .selectFrom('contacts as c')
    .select([
      ...columns,
      sql<string>`c.created_at::text`.as('created_key'),
      sql<string>`lower(c.name)`.as('name_key'),
    ])
    .where('c.account_id', '=', p.accountId)
    .where('c.group_id', '=', p.groupId);
  if (p.q) {
    const like = `%${escapeLike(p.q.toLowerCase())}%`;
    const digits = p.q.replace(/\D/g, '');
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(c.name)`, 'like', like),
        ...(digits.length >= 2 ? [eb('c.phone', 'like', `%${digits}%`)] : []),
      ]),
    );
  }
  const after = p.after;
  if (p.sort === 'name') {
    if (after?.s === 'n')
      query = query.where(sql<boolean>`(lower(c.name), c.id) > (${after.n}, ${after.id}::uuid)`);
    query = query.orderBy(sql`lower(c.name)`).orderBy('c.id');
  } else {
    if (after?.s === 'c') {
      query = query.where(sql<boolean>`(c.created_at, c.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
    }
    query = query.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc');
  }
  return query.limit(p.limit).execute();
}

export async function findContact(db: Db, accountId: string, groupId: string, id: string) {
  return db
    .selectFrom('contacts as c')
    .select(columns)
    .where('c.account_id', '=', accountId)
    .where('c.group_id', '=', groupId)
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/** Inserts unless the group already has the phone; then returns undefined. */
export async function insertContact(
  db: Db,
  c: { accountId: string; groupId: string; phone: string; name: string; fields: Record<string, string> },
) {
  const row = await db
    .insertInto('contacts')
    .values({
      account_id: c.accountId,
      group_id: c.groupId,
      phone: c.phone,
      name: c.name,
      fields: JSON.stringify(c.fields),
      updated_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['group_id', 'phone']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? findContact(db, c.accountId, c.groupId, row.id) : undefined;
}

export async function updateContact(
  db: Db,
  accountId: string,
  groupId: string,
  id: string,
  patch: { phone?: string; name?: string; fields?: Record<string, string> },
) {
  const { fields, ...rest } = patch;
  const r = await db
    .updateTable('contacts')
    .set({ ...rest, ...(fields ? { fields: JSON.stringify(fields) } : {}), updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('group_id', '=', groupId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteContacts(db: Db, accountId: string, groupId: string, ids: string[]) {
  if (!ids.length) return 0;
  const r = await db
    .deleteFrom('contacts')
    .where('account_id', '=', accountId)
    .where('group_id', '=', groupId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The custom field names used in a group, sorted. */
export async function fieldKeys(db: Db, accountId: string, groupId: string) {
  const rows = await db
    .selectFrom('contacts')
    .select(sql<string>`jsonb_object_keys(fields)`.as('key'))
    .distinct()
    .where('account_id', '=', accountId)
    .where('group_id', '=', groupId)
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}

/** A batch for export, oldest first, after the (created_at, id) key. */
export async function exportBatch(
  db: Db,
  p: { accountId: string; groupId: string; after?: { t: string; id: string }; limit: number },
) {
  let query = db
    .selectFrom('contacts as c')
    .select(['c.id', 'c.phone', 'c.name', 'c.fields', sql<string>`c.created_at::text`.as('created_key')])
    .where('c.account_id', '=', p.accountId)
    .where('c.group_id', '=', p.groupId);
  if (p.after) {
    query = query.where(
      sql<boolean>`(c.created_at, c.id) > (${p.after.t}::timestamptz, ${p.after.id}::uuid)`,
    );
  }
  return query.orderBy('c.created_at').orderBy('c.id').limit(p.limit).execute();
}

/**
 * Inserts a batch of imported contacts in one statement; phones the group already has are skipped.
 * Returns the phones that were inserted.
 */
export async function insertContactBatch(
  trx: Db,
  b: {
    accountId: string;
    groupId: string;
    importId: string;
    phones: string[];
    names: string[];
    fields: string[];
  },
) {
  if (!b.phones.length) return [];
  const { rows } = await sql<{ phone: string }>`
    INSERT INTO contacts (account_id, group_id, import_id, phone, name, fields)
    SELECT ${b.accountId}::uuid, ${b.groupId}::uuid, ${b.importId}::uuid, p, n, f::jsonb
    FROM unnest(${b.phones}::text[], ${b.names}::text[], ${b.fields}::text[]) AS t(p, n, f)
    ON CONFLICT (group_id, phone) DO NOTHING
    RETURNING phone`.execute(trx);
  return rows.map((r) => r.phone);
}

/** Which import (if any) added each of these phones to the group. */
export async function findImportOfPhones(trx: Db, groupId: string, phones: string[]) {
  if (!phones.length) return new Map<string, string | null>();
  const rows = await trx
    .selectFrom('contacts')
    .select(['phone', 'import_id'])
    .where('group_id', '=', groupId)
    .where('phone', '=', sql<string>`any(${phones}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.phone, r.import_id]));
}

/** Undoes an import: deletes the contacts it added. */
export async function deleteImported(trx: Db, groupId: string, importId: string) {
  const r = await trx
    .deleteFrom('contacts')
    .where('group_id', '=', groupId)
    .where('import_id', '=', importId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The custom field keys the groups' contacts have (as stored), each once, sorted. */
export async function groupFieldKeys(db: Db, accountId: string, groupIds: string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('contacts')
    .select(sql<string>`jsonb_object_keys(fields)`.as('key'))
    .distinct()
    .where('account_id', '=', accountId)
    .where('group_id', 'in', [...new Set(groupIds)])
    .execute();
  return rows.map((r) => r.key).sort((a, b) => a.localeCompare(b));
}
