import { Readable } from 'node:stream';
import { ErrorCode, type ImportDto, type ImportMapping, type ImportUploadDto } from '@wren/contracts';
import type { StoredMapping } from '../../db/schema-directory';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import { recordAudit } from '../audit/audit.service';
import { deleteImported } from './contacts.repository';
import { CSV_BOM, csvLine } from './csv';
import { adjustContactCount } from './groups.repository';
import { requireGroup } from './groups.service';
import { resolveMapping } from './import-mapping';
import { previewImportFile } from './import-preview';
import { ImportTakenOver, runImport } from './import-runner';
import * as repo from './imports.repository';

/** A running import whose runner has been silent this long was interrupted (its node died). */
const STALE_SECONDS = 120;
/** Runs an import may start; one interrupted more often than this is failed. */
export const MAX_IMPORT_ATTEMPTS = 3;
/** The pg-boss queue of imports, and the sweep that rescues imports whose node died. */
export const IMPORT_JOB = 'contacts.import';
export const IMPORT_RECOVERY_JOB = 'contacts.import-recovery';
const RECOVERY_SECONDS = 30;
const GAVE_UP = `The import was interrupted ${MAX_IMPORT_ATTEMPTS} times and undone; commit it again to retry`;

interface Deps {
  db: Db;
  events: EventBus;
  logger: Logger;
  /** Imports run as jobs, on whichever node works jobs. */
  jobs: Jobs;
  defaultCountry: string;
  /** IMPORT_MAX_BYTES */
  maxBytes: number;
  /** Tests: how long a silent runner is trusted (default 120 s). */
  staleSeconds?: number;
}

/**
 * Contact imports: upload (stored in the database with a preview), commit with a column mapping
 * (a pg-boss job, batch by batch), progress, and a CSV report of skipped rows. The state lives in
 * contact_imports: `running` with the job that holds it (runner) and a heartbeat renewed per batch.
 * A node that stops hands its import back to the queue; an import whose node died is re-queued by
 * the recovery sweep (and failed, with a reason, after MAX_IMPORT_ATTEMPTS runs). Each run first
 * undoes what an earlier run added, so a restarted import is imported exactly once.
 */
export function createImportsService(deps: Deps) {
  const { db, events, logger, jobs } = deps;
  const staleSeconds = deps.staleSeconds ?? STALE_SECONDS;
  /** Imports running on this node. */
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  const toImport = (row: repo.ImportRow): ImportDto => ({
    id: row.id,
    groupId: row.group_id,
    status: row.status,
    fileName: row.file_name,
    fileType: row.file_type,
    rowCountGuess: row.row_count_guess,
    processed: row.processed,
    inserted: row.inserted,
    invalid: row.invalid,
    duplicates: row.duplicates,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  });

  /** Deletes what an earlier run of this import added, and its report. */
  const undo = (trx: Db, job: { groupId: string; importId: string }) =>
    deleteImported(trx, job.groupId, job.importId).then(async (n) => {
      await adjustContactCount(trx, job.groupId, -n);
      await repo.deleteIssues(trx, job.importId);
    });

  /** Undoes a running import and marks it failed (only while `runner` holds it, when given). */
  const fail = (
    job: { accountId: string; groupId: string; importId: string },
    error: string,
    runner?: string,
  ) =>
    transact(db, async (trx) => {
      await undo(trx, job);
      if (!(await repo.finishImport(trx, job.importId, { status: 'failed', error }, runner))) {
        throw new ImportTakenOver(job.importId); // rolls the undo back
      }
    }).then(
      () => events.publish('group.changed', { accountId: job.accountId, groupId: job.groupId }),
      (err: unknown) => {
        if (!(err instanceof ImportTakenOver)) throw err;
      },
    );

  /** The `contacts.import` job: takes the import, undoes an earlier run's rows, and runs it. */
  async function execute(importId: string, runner: string, stopped: AbortSignal) {
    const row = await repo.takeImport(db, importId, runner, staleSeconds);
    if (!row) return; // finished, or held by a live runner
    const job = { importId, accountId: row.account_id, groupId: row.group_id };
    if (row.attempts > MAX_IMPORT_ATTEMPTS) {
      logger.warn({ importId, attempts: row.attempts }, 'import interrupted too often: failed');
      return fail(job, GAVE_UP, runner);
    }
    const controller = new AbortController();
    const onStop = () => controller.abort();
    stopped.addEventListener('abort', onStop);
    const signal = controller.signal;
    const done = (async () => {
      try {
        const file = await repo.readFile(db, importId);
        if (!file) throw new AppError(ErrorCode.CONFLICT, 'The uploaded file is gone; upload it again');
        await transact(db, (trx) => undo(trx, job));
        const mapping = resolveMapping(row.mapping ?? row.suggested_mapping, row.columns);
        const counts = await runImport(
          db,
          {
            ...job,
            runner,
            fileType: row.file_type,
            options: row.options,
            mapping,
            defaultCountry: deps.defaultCountry,
            file,
          },
          signal,
        );
        await transact(db, async (trx) => {
          if (!(await repo.finishImport(trx, importId, { status: 'completed' }, runner))) {
            throw new ImportTakenOver(importId);
          }
          await recordAudit(trx, {
            accountId: job.accountId,
            userId: null,
            kind: 'contacts.imported',
            message: `Imported ${counts.inserted} contacts; ${counts.invalid} invalid and ${counts.duplicates} duplicate rows skipped`,
          });
        });
        events.publish('group.changed', { accountId: job.accountId, groupId: job.groupId });
      } catch (err) {
        if (err instanceof ImportTakenOver) {
          logger.warn({ importId }, 'import taken over by another runner; this run stops');
        } else if (signal.aborted) {
          // This node is stopping: hand the import back; the next run undoes this one's batches.
          if (await repo.releaseImport(db, importId, runner)) {
            await jobs.send(IMPORT_JOB, { importId });
            logger.info({ importId }, 'import handed back to the queue');
          }
        } else {
          if (!(err instanceof AppError)) logger.error({ err, importId }, 'import failed');
          const message =
            err instanceof AppError
              ? err.message
              : 'The import failed and was undone. Check the file and try again.';
          await fail(job, message, runner).catch((undoErr: unknown) =>
            logger.warn({ err: undoErr, importId }, 'could not undo a failed import'),
          );
        }
      }
    })();
    running.set(importId, { controller, done });
    try {
      await done;
    } finally {
      running.delete(importId);
      stopped.removeEventListener('abort', onStop);
    }
  }

  /** Re-queues running imports whose runner went silent (its node died); fails those out of attempts. */
  async function recover() {
    for (const s of await repo.findStranded(db, staleSeconds)) {
      const job = { importId: s.id, accountId: s.account_id, groupId: s.group_id };
      if (s.attempts >= MAX_IMPORT_ATTEMPTS) {
        logger.warn({ importId: s.id, attempts: s.attempts }, 'stranded import out of attempts: failed');
        await fail(job, GAVE_UP);
      } else if (await repo.rescueImport(db, s.id, staleSeconds)) {
        logger.warn({ importId: s.id }, 'stranded import re-queued');
        await jobs.send(IMPORT_JOB, { importId: s.id });
      }
    }
  }

  jobs.register<{ importId: string }>(IMPORT_JOB, (data, job) => execute(data.importId, job.id, job.signal), {
    expireInSeconds: 4 * 3600,
    pollSeconds: 1,
  });
  jobs.every(IMPORT_RECOVERY_JOB, RECOVERY_SECONDS, () => recover());

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

    /** Queues the import with the mapping (or the suggested one) and answers at once. */
    async commit(input: { accountId: string; groupId: string; importId: string; mapping?: ImportMapping }) {
      const row = await repo.findImport(db, input.accountId, input.groupId, input.importId);
      if (!row) throw notFound('Import');
      if (row.status === 'completed')
        throw new AppError(ErrorCode.CONFLICT, 'This file was already imported');
      if (row.status === 'running') throw new AppError(ErrorCode.CONFLICT, 'This import is already running');
      const mapping: StoredMapping = input.mapping
        ? { phone: input.mapping.phone, name: input.mapping.name ?? null, fields: input.mapping.fields ?? {} }
        : row.suggested_mapping;
      resolveMapping(mapping, row.columns); // a bad mapping fails here, not in the job
      const claimed = await transact(db, async (trx) => {
        const c = await repo.claimImport(trx, input.accountId, input.importId, mapping);
        if (c) await jobs.send(IMPORT_JOB, { importId: c.id }, { trx });
        return c;
      });
      if (!claimed) throw new AppError(ErrorCode.CONFLICT, 'This import is already running or done');
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

    /** Hands this node's running imports back to the queue (between batches) and waits for that. */
    async stop() {
      for (const r of running.values()) r.controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
    },

    /** Runs the recovery sweep now (tests). */
    recover,

    /** Resolves when a run of the import on this node has finished (for tests and benchmarks). */
    async settled(importId: string) {
      await running.get(importId)?.done;
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
