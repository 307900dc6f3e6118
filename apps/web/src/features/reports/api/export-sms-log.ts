import { useMutation } from '@tanstack/react-query';
import { MESSAGING_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import type { SmsLogQueryFilters } from './query-keys';

export interface CsvFile {
  blob: Blob;
  filename: string;
}

function filenameOf(disposition: unknown): string {
  const match = typeof disposition === 'string' ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1] ?? `sms-log-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** The whole filtered log as CSV (fetched with the session's token, so not a plain link). */
export async function exportSmsLog(filters: SmsLogQueryFilters): Promise<CsvFile> {
  const response = await http.get<Blob>(MESSAGING_API.logExport, { params: filters, responseType: 'blob' });
  return { blob: response.data, filename: filenameOf(response.headers['content-disposition']) };
}

export const useExportSmsLog = () => useMutation({ mutationFn: exportSmsLog });
