import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';
import { csvRows, phoneCell, xlsxRows, type FileRow } from '../contacts/import-rows';
import { unguardCell } from '../contacts/csv';
import { checkXlsxZip } from '../contacts/import-zip-guard';
import * as repo from './campaigns.repository';

/** A number read from one of a campaign's sources, before it is checked. */
export interface Candidate {
  row: number | null;
  raw: string;
  /**
   * The values of the campaign's columns (its placeholders), in their order: a personalised file's
   * cells, or a contact's name, phone and custom fields. Absent: the source has no values of its own
   * (a pasted number), and only {{phone}} is known.
   */
  values?: string[];
  /**
   * A contact (or a pasted number): a placeholder it has no value for is sent empty and counted,
   * not refused. A file's empty cell is a row to fix instead ("Missing value for …").
   */
  lenient?: boolean;
  /** A resend's own text. */
  body?: string;
}

/** What a contact fills in: its name, its phone and its custom fields (keys matched case-insensitively). */
export interface ContactValues {
  phone: string;
  name: string;
  fields: Record<string, unknown>;
}

/**
 * A contact's value of each column, '' where it has none: {{name}}, {{phone}} and each custom field,
 * case-insensitively as the contact and import dialogs match them.
 */
export function contactValues(columns: string[], contact: ContactValues): string[] {
  const byKey = new Map<string, string>();
  for (const [k, v] of Object.entries(contact.fields)) {
    const key = k.toLowerCase();
    // Fields are strings (customFieldsSchema); anything else stored is no value.
    if (!byKey.has(key) && typeof v === 'string') byKey.set(key, v);
  }
  return columns.map((column) => {
    const key = column.toLowerCase();
    if (key === 'name') return contact.name;
    if (key === 'phone') return contact.phone;
    return byKey.get(key) ?? '';
  });
}

/** The account's groups among `groupIds`; another account's (or no) group is a 404. */
export async function checkOwnGroups(db: Db, accountId: string, groupIds: string[]): Promise<void> {
  const wanted = new Set(groupIds);
  if (wanted.size === 0) return;
  const found = await db
    .selectFrom('contact_groups')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', [...wanted])
    .execute();
  if (found.length !== wanted.size) throw new AppError(ErrorCode.NOT_FOUND, 'Contact group not found');
}

/** A pasted number and the line of the paste it is on (1-based). */
export interface PastedNumber {
  line: number;
  raw: string;
}

/**
 * Splits pasted numbers: one per line, or separated by commas, semicolons or tabs. Each keeps its
 * line, which the estimate's issues name: counting numbers instead, "Row 4: 12345" pointed at the
 * third line when the first held two (issue 47, defect 6).
 */
export function splitPasted(text: string): PastedNumber[] {
  return text.split(/\r\n|\r|\n/).flatMap((lineText, i) =>
    lineText
      .split(/[,;\t]+/)
      .map((s) => s.trim())
      .filter(Boolean)
      .map((raw) => ({ line: i + 1, raw })),
  );
}

async function* groupCandidates(
  db: Db,
  accountId: string,
  groupIds: string[],
  columns: string[],
): AsyncGenerator<Candidate[]> {
  if (groupIds.length === 0) return;
  // The groups are the caller's (checkOwnGroups, before the scan); account_id keeps it so.
  for (const groupId of new Set(groupIds)) {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('contacts')
        .select(columns.length ? ['phone', 'name', 'fields'] : ['phone'])
        .where('group_id', '=', groupId)
        .where('account_id', '=', accountId)
        .where('phone', '>', after)
        .orderBy('phone')
        .limit(10_000)
        .execute();
      yield rows.map((r): Candidate =>
        columns.length
          ? {
              row: null,
              raw: r.phone,
              lenient: true,
              values: contactValues(columns, {
                phone: r.phone,
                name: (r as { name?: string }).name ?? '',
                fields: ((r as { fields?: unknown }).fields ?? {}) as Record<string, unknown>,
              }),
            }
          : { row: null, raw: r.phone },
      );
      const last = rows[rows.length - 1];
      if (!last || rows.length < 10_000) break;
      after = last.phone;
    }
  }
}

/** Rows handed to the scan at a time (one async step per batch, not per row). */
const ROW_BATCH = 1000;

/** The rows of a stored upload (the header row excluded), in batches of up to ROW_BATCH. */
export async function* uploadRows(db: Db, upload: repo.UploadInfo): AsyncGenerator<FileRow[]> {
  let rows: AsyncGenerator<FileRow>;
  if (upload.file_type === 'xlsx') {
    const file = await repo.uploadFile(db, upload.id);
    await checkXlsxZip(Buffer.from(file));
    rows = xlsxRows(file);
  } else {
    const text = await repo.uploadText(db, upload.id, upload.encoding ?? 'utf-8');
    rows = csvRows(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, upload.delimiter ?? ',');
  }
  let first = true;
  let batch: FileRow[] = [];
  for await (const r of rows) {
    if (first && upload.has_header) {
      first = false;
      continue;
    }
    first = false;
    batch.push(r);
    if (batch.length >= ROW_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function* resendCandidates(db: Db, accountId: string, campaignId: string): AsyncGenerator<Candidate[]> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await sql<{ id: string; recipient: string; body: string }>`
      SELECT id, recipient, body FROM messages
       WHERE campaign_id = ${campaignId} AND account_id = ${accountId}
         AND status IN ('undelivered', 'expired', 'rejected', 'failed', 'unknown')
         AND id > ${after}::uuid
       ORDER BY id LIMIT 10000`.execute(db);
    yield rows.rows.map((r): Candidate => ({ row: null, raw: r.recipient, body: r.body }));
    const last = rows.rows[rows.rows.length - 1];
    if (!last || rows.rows.length < 10_000) return;
    after = last.id;
  }
}

/**
 * Every source of a campaign's numbers, in the order they are read: a resend's failed messages, the
 * groups, the pasted numbers, then the uploaded file's rows (`phoneIndex` is its phone column).
 */
export function candidateSources(
  db: Db,
  src: { accountId: string; groupIds: string[]; resendOf?: string },
  pasted: PastedNumber[],
  upload: { info: repo.UploadInfo; phoneIndex: number } | undefined,
  /** The columns filled per recipient; `columnIndex` their places in a personalised file (else empty: a bulk file gives numbers only). */
  layout: { columns: string[]; columnIndex: number[] },
): AsyncGenerator<Candidate[]>[] {
  const sources: AsyncGenerator<Candidate[]>[] = [];
  const { columns, columnIndex } = layout;
  if (src.resendOf) sources.push(resendCandidates(db, src.accountId, src.resendOf));
  sources.push(groupCandidates(db, src.accountId, src.groupIds, src.resendOf ? [] : columns));
  sources.push(
    (async function* () {
      yield pasted.map(({ line, raw }): Candidate => ({ row: line, raw }));
    })(),
  );
  if (upload) {
    sources.push(
      (async function* () {
        for await (const rows of uploadRows(db, upload.info))
          yield rows.map((r): Candidate =>
            columnIndex.length > 0
              ? {
                  row: r.row,
                  raw: phoneCell(r, upload.phoneIndex),
                  values: columnIndex.map((i) => unguardCell((r.cells[i] ?? '').trim())),
                }
              : { row: r.row, raw: phoneCell(r, upload.phoneIndex) },
          );
      })(),
    );
  }
  return sources;
}
