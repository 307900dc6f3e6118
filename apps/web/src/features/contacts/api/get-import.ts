import { useQuery } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type ImportDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const IMPORT_POLL_MS = 500;

export const importQueryKey = (groupId: string, importId: string) =>
  ['groups', groupId, 'imports', importId] as const;

export const isImportFinished = (status: ImportDto['status'] | undefined) =>
  status === 'completed' || status === 'failed';

/**
 * The state of an import. The marker `fileUpload` in the query string keeps these frequent polls
 * out of the global busy overlay (SPEC.md §4: URLs containing fileUpload do not count); the
 * server ignores the parameter.
 */
export async function getImport(groupId: string, importId: string): Promise<ImportDto> {
  const url = `${fillApiPath(CONTACTS_API.import, { id: groupId, importId })}?progress=fileUpload`;
  const { data } = await http.get<ImportDto>(url);
  return data;
}

/** Polls every 500 ms until the import has completed or failed. */
export function useImportProgress(groupId: string, importId: string | null) {
  return useQuery({
    queryKey: importQueryKey(groupId, importId ?? ''),
    queryFn: () => getImport(groupId, importId ?? ''),
    enabled: importId !== null,
    staleTime: 0,
    refetchInterval: (query) => (isImportFinished(query.state.data?.status) ? false : IMPORT_POLL_MS),
    refetchIntervalInBackground: true,
  });
}
