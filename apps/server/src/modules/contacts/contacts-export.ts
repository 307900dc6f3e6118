import type { Db } from '../../platform/db';
import * as repo from './contacts.repository';
import { CSV_BOM, csvLine } from './csv';

const BATCH = 5000;

/**
 * A contact's own custom field `key` as text ('' when it has none). Own properties only: a field
 * named `constructor` or `toString` that one contact has must not read the Object prototype's
 * function for the contacts without it.
 */
export const fieldOf = (fields: Record<string, unknown>, key: string): string => {
  const v = Object.hasOwn(fields, key) ? fields[key] : undefined;
  return typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v);
};

/**
 * Yields a group's contacts as CSV: a header (Phone, Name, then every custom field name), then one
 * record per contact, oldest first, read in keyset batches so memory stays flat and other requests
 * run between batches. Cells are guarded against formula injection.
 */
export async function* exportGroupCsv(
  db: Db,
  p: { accountId: string; groupId: string },
): AsyncGenerator<string> {
  const keys = await repo.fieldKeys(db, p.accountId, p.groupId);
  yield CSV_BOM + csvLine(['Phone', 'Name', ...keys]);
  let after: { t: string; id: string } | undefined;
  for (;;) {
    const rows = await repo.exportBatch(db, { ...p, after, limit: BATCH });
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.phone, r.name, ...keys.map((k) => fieldOf(r.fields, k))])).join('');
    const last = rows[rows.length - 1];
    after = { t: last.created_key, id: last.id };
    if (rows.length < BATCH) return;
  }
}
