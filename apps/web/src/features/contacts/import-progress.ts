import type { ImportDto } from '@wren/contracts';

type ImportCounts = Pick<ImportDto, 'status' | 'processed' | 'rowCountGuess'>;

/**
 * How far an import is, 0–100. The row count is a guess from the upload, so a running import
 * stays below 100 until the server says it has completed.
 */
export function importPercent(state: ImportCounts): number {
  if (state.status === 'completed') return 100;
  if (state.status === 'uploaded' || state.rowCountGuess <= 0) return 0;
  return Math.min(99, Math.floor((state.processed / state.rowCountGuess) * 100));
}

/** The line under the progress bar. */
export function importProgressText(state: ImportCounts, format: (n: number) => string = String): string {
  switch (state.status) {
    case 'completed':
      return `Done: ${format(state.processed)} ${state.processed === 1 ? 'row' : 'rows'} read`;
    case 'failed':
      return 'The import stopped';
    case 'uploaded':
      return 'Starting…';
    default:
      return `Importing… ${format(state.processed)} of about ${format(state.rowCountGuess)} rows`;
  }
}

/** Whether there is a report of skipped rows to download. */
export const hasSkippedRows = (state: Pick<ImportDto, 'invalid' | 'duplicates'>) =>
  state.invalid + state.duplicates > 0;
