import { sql } from 'kysely';
import type { ContactImportOptions, StoredMapping } from '../../db/schema-directory';
import type { Db } from '../../platform/db';

/** Everything but the file itself. */
const columns = [
  'id',
  'group_id',
  'status',
  'file_name',
  'file_type',
  'options',
  'columns',
  'suggested_mapping',
  'mapping',
  'row_count_guess',
  'processed',
  'inserted',
  'invalid',
  'duplicates',
  'error',
  'created_at',
  'started_at',
  'finished_at',
  'heartbeat_at',
  'attempts',
] as const;

export type ImportRow = Awaited<ReturnType<typeof findImport>> & {};

export async function insertImport(
  db: Db,
  i: {
    accountId: string;
    groupId: string;
    fileName: string;
    fileType: 'csv' | 'xlsx';
    file: Uint8Array;
    options: ContactImportOptions;
    columns: string[];
    suggestedMapping: StoredMapping;
    rowCountGuess: number;
  },
) {
  return db
    .insertInto('contact_imports')
    .values({
      account_id: i.accountId,
      group_id: i.groupId,
      file_name: i.fileName,
      file_type: i.fileType,
      file_size: i.file.length,
      file_base64: Buffer.from(i.file.buffer, i.file.byteOffset, i.file.byteLength).toString('base64'),
      options: JSON.stringify(i.options),
      columns: JSON.stringify(i.columns),
      suggested_mapping: JSON.stringify(i.suggestedMapping),
      row_count_guess: i.rowCountGuess,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function findImport(db: Db, accountId: string, groupId: string, id: string) {
  return db
    .selectFrom('contact_imports')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('group_id', '=', groupId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function readFile(db: Db, id: string) {
  const row = await db
    .selectFrom('contact_imports')
    .select('file_base64')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.file_base64 ? Buffer.from(row.file_base64, 'base64') : null;
}

/** Drops the account's uploads that were never imported, and failed ones, after a day. */
export async function deleteAbandoned(db: Db, accountId: string) {
  await db
    .deleteFrom('contact_imports')
    .where('account_id', '=', accountId)
    .where('status', 'in', ['uploaded', 'failed'])
    .where('created_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/**
 * Moves an upload (or a failed import) to running, with fresh counters and no runner yet: the
 * commit queues its job in the same transaction. Returns undefined when it is not in such a state,
 * e.g. a second commit of the same file.
 */
export async function claimImport(db: Db, accountId: string, id: string, mapping: StoredMapping) {
  return db
    .updateTable('contact_imports')
    .set({
      status: 'running',
      mapping: JSON.stringify(mapping),
      processed: 0,
      inserted: 0,
      invalid: 0,
      duplicates: 0,
      error: null,
      attempts: 0,
      runner: null,
      started_at: sql<Date>`now()`,
      finished_at: null,
      heartbeat_at: sql<Date>`now()`,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('file_base64', 'is not', null)
    .where('status', 'in', ['uploaded', 'failed'])
    .returning(columns)
    .executeTakeFirst();
}

/**
 * A job takes a running import: when no runner holds it, or its runner's heartbeat is older than
 * `staleSeconds` (that node died). Counts the attempt and clears the previous run's counters.
 */
export async function takeImport(db: Db, id: string, runner: string, staleSeconds: number) {
  return db
    .updateTable('contact_imports')
    .set({
      runner,
      attempts: sql<number>`attempts + 1`,
      processed: 0,
      inserted: 0,
      invalid: 0,
      duplicates: 0,
      heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('runner', 'is', null),
        eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
      ]),
    )
    .returning([...columns, 'account_id', 'runner'])
    .executeTakeFirst();
}

/** The runner hands a running import back (its node is stopping); another job takes it. */
export async function releaseImport(db: Db, id: string, runner: string) {
  const r = await db
    .updateTable('contact_imports')
    .set({ runner: null })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('runner', '=', runner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Running imports whose runner has been silent for `staleSeconds` (its node died, or its job was lost). */
export async function findStranded(db: Db, staleSeconds: number) {
  return db
    .selectFrom('contact_imports')
    .select(['id', 'account_id', 'group_id', 'attempts'])
    .where('status', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('heartbeat_at', 'is', null),
        eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
      ]),
    )
    .orderBy('started_at')
    .limit(100)
    .execute();
}

/** Frees a stranded import for a new job (once: a concurrent sweep gets false). */
export async function rescueImport(db: Db, id: string, staleSeconds: number) {
  const r = await db
    .updateTable('contact_imports')
    .set({ runner: null, heartbeat_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('heartbeat_at', 'is', null),
        eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Adds a batch's counts and renews the heartbeat; false when `runner` no longer holds the import. */
export async function addProgress(
  trx: Db,
  id: string,
  runner: string,
  d: { processed: number; inserted: number; invalid: number; duplicates: number },
) {
  const r = await trx
    .updateTable('contact_imports')
    .set({
      processed: sql`processed + ${d.processed}`,
      inserted: sql`inserted + ${d.inserted}`,
      invalid: sql`invalid + ${d.invalid}`,
      duplicates: sql`duplicates + ${d.duplicates}`,
      heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('runner', '=', runner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends a running import; with `runner`, only while that runner holds it (false otherwise). */
export async function finishImport(
  trx: Db,
  id: string,
  outcome: { status: 'completed' | 'failed'; error?: string },
  runner?: string,
) {
  let q = trx
    .updateTable('contact_imports')
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      runner: null,
      finished_at: sql<Date>`now()`,
      heartbeat_at: sql<Date>`now()`,
      // A completed import keeps its counts and report but not the file.
      ...(outcome.status === 'completed'
        ? { file_base64: null }
        : { processed: 0, inserted: 0, invalid: 0, duplicates: 0 }),
    })
    .where('id', '=', id)
    .where('status', '=', 'running');
  if (runner !== undefined) q = q.where('runner', '=', runner);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface Issue {
  row: number;
  phone: string;
  name: string;
  reason: string;
}

export async function insertIssues(trx: Db, importId: string, issues: Issue[]) {
  if (!issues.length) return;
  await sql`
    INSERT INTO contact_import_issues (import_id, row_number, phone, name, reason)
    SELECT ${importId}::uuid, r, p, n, why
    FROM unnest(${issues.map((i) => i.row)}::int[], ${issues.map((i) => i.phone)}::text[],
                ${issues.map((i) => i.name)}::text[], ${issues.map((i) => i.reason)}::text[]) AS t(r, p, n, why)
    ON CONFLICT DO NOTHING`.execute(trx);
}

export async function deleteIssues(trx: Db, importId: string) {
  await trx.deleteFrom('contact_import_issues').where('import_id', '=', importId).execute();
}

/** A batch of the report, in row order after `afterRow`. */
export async function issueBatch(db: Db, importId: string, afterRow: number, limit: number) {
  return db
    .selectFrom('contact_import_issues')
    .select(['row_number', 'phone', 'name', 'reason'])
    .where('import_id', '=', importId)
    .where('row_number', '>', afterRow)
    .orderBy('row_number')
    .limit(limit)
    .execute();
}
