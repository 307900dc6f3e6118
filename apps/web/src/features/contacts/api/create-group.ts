import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTACTS_API, type GroupDto, type GroupInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function createGroup(input: GroupInput): Promise<GroupDto> {
  const { data } = await http.post<GroupDto>(CONTACTS_API.groups, input);
  return data;
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['groups'] }),
  });
}
