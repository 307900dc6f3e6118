import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Deletes a group with all its contacts. */
export async function deleteGroup(id: string): Promise<void> {
  await http.delete(fillApiPath(CONTACTS_API.group, { id }));
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: ['groups', id] });
      return queryClient.invalidateQueries({ queryKey: ['groups', 'list'] });
    },
  });
}
