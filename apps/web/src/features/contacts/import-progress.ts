import type { ImportDto } from '@wren/contracts';
import { translate } from '@/lib/i18n';

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
      return state.processed === 1
        ? translate('Done: {{count}} row read', { count: format(state.processed) })
        : translate('Done: {{count}} rows read', { count: format(state.processed) });
    case 'failed':
      return translate('The import stopped');
    case 'uploaded':
      return translate('Starting…');
    default:
      return translate('Importing… {{processed}} of about {{total}} rows', {
        processed: format(state.processed),
        total: format(state.rowCountGuess),
      });
  }
}

/** Whether there is a report of skipped rows to download. */
export const hasSkippedRows = (state: Pick<ImportDto, 'invalid' | 'duplicates'>) =>
  state.invalid + state.duplicates > 0;
