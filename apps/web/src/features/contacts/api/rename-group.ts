import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type GroupDto, type GroupInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function renameGroup({ id, name }: GroupInput & { id: string }): Promise<GroupDto> {
  const { data } = await http.patch<GroupDto>(fillApiPath(CONTACTS_API.group, { id }), { name });
  return data;
}

export function useRenameGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['groups'] }),
  });
}
