import { Readable } from 'node:stream';
import { ErrorCode, type ImportDto, type ImportMapping, type ImportUploadDto } from '@wren/contracts';
import type { StoredMapping } from '../../db/schema-directory';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { recordAudit } from '../audit/audit.repository';
import { deleteImported } from './contacts.repository';
import { CSV_BOM, csvLine } from './csv';
import { adjustContactCount } from './groups.repository';
import { requireGroup } from './groups.service';
import { resolveMapping } from './import-mapping';
import { previewImportFile } from './import-preview';
import { runImport, type ImportJob } from './import-runner';
import * as repo from './imports.repository';

/** A running import whose heartbeat is older than this was interrupted (e.g. the server stopped). */
const STALE_SECONDS = 120;
const INTERRUPTED = 'The import was interrupted and undone; commit it again to retry';

interface Deps {
  db: Db;
  events: EventBus;
  logger: Logger;
  defaultCountry: string;
  /** IMPORT_MAX_BYTES */
  maxBytes: number;
}

/**
 * Contact imports: upload (stored in the database with a preview), commit with a column mapping
 * (runs in the background, batch by batch), progress, and a CSV report of skipped rows.
 */
export function createImportsService(deps: Deps) {
  const { db, events, logger } = deps;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  const toImport = (row: repo.ImportRow): ImportDto => {
    const stale =
      row.status === 'running' &&
      !running.has(row.id) &&
      (row.heartbeat_at?.getTime() ?? 0) < Date.now() - STALE_SECONDS * 1000;
    return {
      id: row.id,
      groupId: row.group_id,
      status: stale ? 'failed' : row.status,
      fileName: row.file_name,
      fileType: row.file_type,
      rowCountGuess: row.row_count_guess,
      processed: stale ? 0 : row.processed,
      inserted: stale ? 0 : row.inserted,
      invalid: stale ? 0 : row.invalid,
      duplicates: stale ? 0 : row.duplicates,
      error: stale ? INTERRUPTED : row.error,
      createdAt: row.created_at.toISOString(),
      startedAt: row.started_at?.toISOString() ?? null,
      finishedAt: row.finished_at?.toISOString() ?? null,
    };
  };

  /** Deletes what an earlier, failed run of this import added, and its report. */
  const undo = (trx: Db, job: { groupId: string; importId: string }) =>
    deleteImported(trx, job.groupId, job.importId).then(async (n) => {
      await adjustContactCount(trx, job.groupId, -n);
      await repo.deleteIssues(trx, job.importId);
    });

  async function execute(job: Omit<ImportJob, 'file'>, retry: boolean, signal: AbortSignal) {
    const changed = () => events.publish('group.changed', { accountId: job.accountId, groupId: job.groupId });
    try {
      const file = await repo.readFile(db, job.importId);
      if (!file) throw new AppError(ErrorCode.CONFLICT, 'The uploaded file is gone; upload it again');
      if (retry) await transact(db, (trx) => undo(trx, job));
      const counts = await runImport(db, { ...job, file }, signal);
      await transact(db, async (trx) => {
        await repo.finishImport(trx, job.importId, { status: 'completed' });
        await recordAudit(trx, {
          accountId: job.accountId,
          userId: null,
          kind: 'contacts.imported',
          message: `Imported ${counts.inserted} contacts; ${counts.invalid} invalid and ${counts.duplicates} duplicate rows skipped`,
        });
      });
    } catch (err) {
      const message = signal.aborted
        ? INTERRUPTED
        : err instanceof AppError
          ? err.message
          : 'The import failed and was undone. Check the file and try again.';
      if (!signal.aborted && !(err instanceof AppError))
        logger.error({ err, importId: job.importId }, 'import failed');
      try {
        await transact(db, async (trx) => {
          await undo(trx, job);
          await repo.finishImport(trx, job.importId, { status: 'failed', error: message });
        });
      } catch (undoErr) {
        logger.warn({ err: undoErr, importId: job.importId }, 'could not undo a failed import');
      }
    }
    changed();
  }

  return {
    async upload(input: {
      accountId: string;
      groupId: string;
      fileName: string;
      bytes: Buffer;
    }): Promise<ImportUploadDto> {
      await requireGroup(db, input.accountId, input.groupId);
      if (input.bytes.length > deps.maxBytes) {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The file is too large');
      }
      const p = await previewImportFile(input.bytes, deps.defaultCountry);
      const fileName = input.fileName.trim().slice(0, 200) || `contacts.${p.fileType}`;
      await repo.deleteAbandoned(db, input.accountId);
      const { id } = await repo.insertImport(db, {
        accountId: input.accountId,
        groupId: input.groupId,
        fileName,
        fileType: p.fileType,
        file: input.bytes,
        options: p.options,
        columns: p.columns,
        suggestedMapping: p.suggestedMapping,
        rowCountGuess: p.rowCountGuess,
      });
      return {
        importId: id,
        fileName,
        fileType: p.fileType,
        columns: p.columns,
        hasHeader: p.options.hasHeader,
        previewRows: p.previewRows,
        rowCountGuess: p.rowCountGuess,
        suggestedMapping: p.suggestedMapping,
      };
    },

    /** Starts the import with the mapping (or the suggested one) and answers at once. */
    async commit(input: { accountId: string; groupId: string; importId: string; mapping?: ImportMapping }) {
      const row = await repo.findImport(db, input.accountId, input.groupId, input.importId);
      if (!row) throw notFound('Import');
      const current = toImport(row);
      if (current.status === 'completed')
        throw new AppError(ErrorCode.CONFLICT, 'This file was already imported');
      if (current.status === 'running')
        throw new AppError(ErrorCode.CONFLICT, 'This import is already running');
      const mapping: StoredMapping = input.mapping
        ? { phone: input.mapping.phone, name: input.mapping.name ?? null, fields: input.mapping.fields ?? {} }
        : row.suggested_mapping;
      const resolved = resolveMapping(mapping, row.columns);
      const claimed = await repo.claimImport(db, input.accountId, input.importId, mapping, STALE_SECONDS);
      if (!claimed) throw new AppError(ErrorCode.CONFLICT, 'This import is already running or done');
      const controller = new AbortController();
      const job = {
        importId: row.id,
        accountId: input.accountId,
        groupId: row.group_id,
        fileType: row.file_type,
        options: row.options,
        mapping: resolved,
        defaultCountry: deps.defaultCountry,
      };
      const done = execute(job, row.status !== 'uploaded', controller.signal).finally(() =>
        running.delete(row.id),
      );
      running.set(row.id, { controller, done });
      return toImport(claimed);
    },

    async get(input: { accountId: string; groupId: string; importId: string }): Promise<ImportDto> {
      const row = await repo.findImport(db, input.accountId, input.groupId, input.importId);
      if (!row) throw notFound('Import');
      return toImport(row);
    },

    /** The skipped rows (invalid numbers, duplicates) as CSV: Row, Phone, Name, Reason. */
    async report(input: { accountId: string; groupId: string; importId: string }) {
      const row = await repo.findImport(db, input.accountId, input.groupId, input.importId);
      if (!row) throw notFound('Import');
      async function* lines() {
        yield CSV_BOM + csvLine(['Row', 'Phone', 'Name', 'Reason']);
        for (let after = 0; ;) {
          const batch = await repo.issueBatch(db, row!.id, after, 5000);
          if (!batch.length) return;
          yield batch.map((i) => csvLine([String(i.row_number), i.phone, i.name, i.reason])).join('');
          after = batch[batch.length - 1].row_number;
        }
      }
      const base = row.file_name.replace(/\.[^.]*$/, '') || 'import';
      return { fileName: `${base}-report.csv`, stream: Readable.from(lines()) };
    },

    /** Stops running imports between batches (they are undone) and waits for them. */
    async stop() {
      for (const r of running.values()) r.controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
    },

    /** Resolves when the import has finished here (for tests and benchmarks). */
    async settled(importId: string) {
      await running.get(importId)?.done;
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
