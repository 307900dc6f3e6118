import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const columns = ['id', 'name', 'text', 'created_at', 'updated_at'] as const;

export type TemplateRow = Awaited<ReturnType<typeof findTemplate>> & {};

export async function listTemplates(db: Db, accountId: string) {
  return db
    .selectFrom('templates')
    .select(columns)
    .where('account_id', '=', accountId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function findTemplate(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('templates')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Inserts unless the account already has a template of that name (any case); then returns undefined. */
export async function insertTemplate(db: Db, t: { accountId: string; name: string; text: string }) {
  return db
    .insertInto('templates')
    .values({ account_id: t.accountId, name: t.name, text: t.text, updated_at: new Date() })
    .onConflict((oc) => oc.doNothing())
    .returning(columns)
    .executeTakeFirst();
}

/** Creates the template, or replaces the text of the one with the same name (any case). */
export async function upsertTemplateByName(db: Db, t: { accountId: string; name: string; text: string }) {
  return db
    .insertInto('templates')
    .values({ account_id: t.accountId, name: t.name, text: t.text, updated_at: new Date() })
    .onConflict((oc) =>
      oc.expression(sql`account_id, lower(name)`).doUpdateSet({
        name: (eb) => eb.ref('excluded.name'),
        text: (eb) => eb.ref('excluded.text'),
        updated_at: new Date(),
      }),
    )
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateTemplate(
  db: Db,
  accountId: string,
  id: string,
  patch: { name?: string; text?: string },
) {
  return db
    .updateTable('templates')
    .set({ ...patch, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteTemplate(db: Db, accountId: string, id: string) {
  const r = await db
    .deleteFrom('templates')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
