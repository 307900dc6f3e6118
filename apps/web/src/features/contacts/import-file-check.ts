import { IMPORT_MAX_BYTES } from '@wren/contracts';
import { translate } from '@/lib/i18n';

export const IMPORT_EXTENSIONS = ['.csv', '.txt', '.xlsx'] as const;
/** For the file chooser's `accept`. */
export const IMPORT_ACCEPT = [
  ...IMPORT_EXTENSIONS,
  'text/csv',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
].join(',');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The client-side check of a contacts file, or null when it may be uploaded. */
export function importFileProblem(
  file: Pick<File, 'name' | 'size'>,
  maxBytes = IMPORT_MAX_BYTES,
): string | null {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xls'))
    return translate('Old Excel (.xls) files are not supported; save the sheet as .xlsx or .csv.');
  if (!IMPORT_EXTENSIONS.some((ext) => name.endsWith(ext)))
    return translate('Choose a CSV, TXT or XLSX file.');
  if (file.size === 0) return translate('The file is empty.');
  if (file.size > maxBytes)
    return translate('The file must be {{size}} or smaller.', { size: formatBytes(maxBytes) });
  return null;
}
