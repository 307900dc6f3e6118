import { useMutation } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type ImportDto, type ImportMapping } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Starts the import of an uploaded file with the chosen column mapping (202). */
export async function commitImport(
  groupId: string,
  importId: string,
  mapping: ImportMapping,
): Promise<ImportDto> {
  const { data } = await http.post<ImportDto>(
    fillApiPath(CONTACTS_API.importCommit, { id: groupId, importId }),
    {
      mapping,
    },
  );
  return data;
}

export function useCommitImport(groupId: string) {
  return useMutation({
    mutationFn: ({ importId, mapping }: { importId: string; mapping: ImportMapping }) =>
      commitImport(groupId, importId, mapping),
  });
}
