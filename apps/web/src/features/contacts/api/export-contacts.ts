import { useMutation } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath } from '@wren/contracts';
import { downloadFile } from '@/lib/download';

/** Downloads the group's contacts as CSV; resolves to the saved file name. */
export async function exportContacts(groupId: string): Promise<string> {
  return downloadFile(fillApiPath(CONTACTS_API.export, { id: groupId }), 'contacts.csv');
}

export const useExportContacts = () => useMutation({ mutationFn: exportContacts });
