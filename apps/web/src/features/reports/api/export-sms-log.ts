import { useMutation } from '@tanstack/react-query';
import { MESSAGING_API } from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import type { SmsLogQueryFilters } from './query-keys';

/**
 * Downloads the whole filtered log as CSV (fetched with the session's token, so not a plain
 * link); resolves to the saved file name.
 */
export function exportSmsLog(filters: SmsLogQueryFilters): Promise<string> {
  const fallback = `sms-log-${new Date().toISOString().slice(0, 10)}.csv`;
  return downloadFile(MESSAGING_API.logExport, fallback, { params: filters });
}

export const useExportSmsLog = () => useMutation({ mutationFn: exportSmsLog });
