import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** The server deletes at most this many ids per call. */
export const BULK_DELETE_MAX = 1000;

/** Deletes contacts by id, in batches of 1000; returns how many were deleted. */
export async function deleteContacts(groupId: string, ids: readonly string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += BULK_DELETE_MAX) {
    const { data } = await http.post<{ deleted: number }>(
      fillApiPath(CONTACTS_API.bulkDelete, { id: groupId }),
      { ids: ids.slice(i, i + BULK_DELETE_MAX) },
    );
    deleted += data.deleted;
  }
  return deleted;
}

export function useDeleteContacts(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteContacts(groupId, ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['groups'] }),
  });
}
