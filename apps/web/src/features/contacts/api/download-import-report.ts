import { useMutation } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath } from '@wren/contracts';
import { downloadFile } from '@/lib/download';

/** Downloads the CSV of the rows an import skipped (invalid numbers and duplicates). */
export async function downloadImportReport(groupId: string, importId: string): Promise<string> {
  return downloadFile(fillApiPath(CONTACTS_API.importReport, { id: groupId, importId }), 'import-report.csv');
}

export function useDownloadImportReport(groupId: string) {
  return useMutation({ mutationFn: (importId: string) => downloadImportReport(groupId, importId) });
}
