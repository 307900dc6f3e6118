import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ContactImportOptions } from '../../db/schema-directory';
import { type Db, transact } from '../../platform/db';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import { normaliseContactPhone } from './contact-phone';
import * as contactsRepo from './contacts.repository';
import { unguardCell } from './csv';
import { adjustContactCount } from './groups.repository';
import type { ResolvedMapping } from './import-mapping';
import { csvRows, phoneCell, xlsxRows, type FileRow } from './import-rows';
import * as repo from './imports.repository';
import { checkXlsxZip } from './import-zip-guard';

export const IMPORT_BATCH_ROWS = 1000;

export interface ImportJob {
  importId: string;
  /** The job holding the import (contact_imports.runner); a batch commits only while it does. */
  runner: string;
  accountId: string;
  groupId: string;
  fileType: 'csv' | 'xlsx';
  file: Buffer;
  options: ContactImportOptions;
  mapping: ResolvedMapping;
  defaultCountry: string;
}

interface Parsed {
  row: number;
  raw: string;
  phone: string | null;
  name: string;
  fields: Record<string, string>;
}

/** Another runner took the import over (this one was thought dead); this run stops without undoing. */
export class ImportTakenOver extends Error {
  constructor(importId: string) {
    super(`import ${importId} was taken over by another runner`);
  }
}

export interface ImportCounts {
  processed: number;
  inserted: number;
  invalid: number;
  duplicates: number;
}

const cell = (cells: string[], i: number) => unguardCell((cells[i] ?? '').trim());

function parseRow(job: ImportJob, r: FileRow): Parsed {
  const { mapping } = job;
  const raw = unguardCell(phoneCell(r, mapping.phone).trim());
  const fields: Record<string, string> = {};
  for (const [key, i] of mapping.fields) {
    const v = cell(r.cells, i);
    if (v) fields[key] = v.slice(0, 500);
  }
  return {
    row: r.row,
    raw,
    phone: normaliseContactPhone(raw, job.defaultCountry),
    name: mapping.name === null ? '' : cell(r.cells, mapping.name).slice(0, 100),
    fields,
  };
}

/** A workbook stored before the zip checks existed is checked again before it is read. */
async function* checkedXlsxRows(file: Buffer): AsyncGenerator<FileRow> {
  await checkXlsxZip(file);
  yield* xlsxRows(file);
}

function rowsOf(job: ImportJob): AsyncGenerator<FileRow> {
  if (job.fileType === 'xlsx') return checkedXlsxRows(job.file);
  const text = new TextDecoder(job.options.encoding ?? 'utf-8').decode(job.file);
  return csvRows(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, job.options.delimiter ?? ',');
}

/**
 * Writes one batch in one transaction: the new contacts (one multi-row INSERT … ON CONFLICT DO
 * NOTHING), the skipped rows for the report, the import's progress and the group's count.
 */
async function writeBatch(db: Db, job: ImportJob, batch: Parsed[]): Promise<ImportCounts> {
  const issues: repo.Issue[] = [];
  const fresh: Parsed[] = [];
  const inBatch = new Set<string>();
  for (const p of batch) {
    if (!p.phone) {
      issues.push({
        row: p.row,
        phone: p.raw,
        name: p.name,
        reason: p.raw ? 'Invalid phone number' : 'Missing phone number',
      });
    } else if (inBatch.has(p.phone)) {
      issues.push({ row: p.row, phone: p.raw, name: p.name, reason: 'Duplicate in the file' });
    } else {
      inBatch.add(p.phone);
      fresh.push(p);
    }
  }
  // One lock order for every writer, so two imports into the same group cannot deadlock.
  fresh.sort((a, b) => (a.phone! < b.phone! ? -1 : a.phone! > b.phone! ? 1 : 0));
  return transact(db, async (trx) => {
    const inserted = new Set(
      await contactsRepo.insertContactBatch(trx, {
        accountId: job.accountId,
        groupId: job.groupId,
        importId: job.importId,
        phones: fresh.map((p) => p.phone!),
        names: fresh.map((p) => p.name),
        fields: fresh.map((p) => JSON.stringify(p.fields)),
      }),
    );
    const skipped = fresh.filter((p) => !inserted.has(p.phone!));
    const owners = await contactsRepo.findImportOfPhones(
      trx,
      job.groupId,
      skipped.map((p) => p.phone!),
    );
    for (const p of skipped) {
      const reason = owners.get(p.phone!) === job.importId ? 'Duplicate in the file' : 'Already in the group';
      issues.push({ row: p.row, phone: p.raw, name: p.name, reason });
    }
    const counts: ImportCounts = {
      processed: batch.length,
      inserted: inserted.size,
      invalid: issues.filter((i) => i.reason.endsWith('phone number')).length,
      duplicates: issues.filter((i) => !i.reason.endsWith('phone number')).length,
    };
    await repo.insertIssues(trx, job.importId, issues);
    if (!(await repo.addProgress(trx, job.importId, job.runner, counts)))
      throw new ImportTakenOver(job.importId);
    await adjustContactCount(trx, job.groupId, counts.inserted);
    return counts;
  });
}

/**
 * Streams the file through validation into the group in batches of 1000, each in its own
 * transaction. While one batch is written the next is parsed and validated; between batches the
 * runner yields to the event loop so the server keeps answering. Stops between batches when
 * `signal` aborts.
 */
export function runImport(db: Db, job: ImportJob, signal: AbortSignal): Promise<ImportCounts> {
  // A large file makes hundreds of megabytes of short-lived objects (platform/heap-growth.ts).
  return withTightHeapGrowth(() => importRows(db, job, signal));
}

async function importRows(db: Db, job: ImportJob, signal: AbortSignal): Promise<ImportCounts> {
  const total: ImportCounts = { processed: 0, inserted: 0, invalid: 0, duplicates: 0 };
  let batch: Parsed[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  const settle = async () => {
    await writing;
    if (failure) throw failure.error;
  };
  const flush = async () => {
    await settle();
    signal.throwIfAborted();
    const rows = batch;
    batch = [];
    writing = writeBatch(db, job, rows).then(
      (c) => {
        total.processed += c.processed;
        total.inserted += c.inserted;
        total.invalid += c.invalid;
        total.duplicates += c.duplicates;
      },
      (error: unknown) => {
        failure = { error };
      },
    );
    await yieldToEventLoop();
  };
  let headerSkipped = !job.options.hasHeader;
  for await (const r of rowsOf(job)) {
    if (!headerSkipped) {
      headerSkipped = true;
      continue;
    }
    if (r.cells.every((c) => c.trim() === '')) continue;
    batch.push(parseRow(job, r));
    if (batch.length >= IMPORT_BATCH_ROWS) await flush();
  }
  if (batch.length) await flush();
  await settle();
  return total;
}
