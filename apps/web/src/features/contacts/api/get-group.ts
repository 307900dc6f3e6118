import { useQuery } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type GroupDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const groupQueryKey = (id: string) => ['groups', id] as const;

export async function getGroup(id: string): Promise<GroupDto> {
  const { data } = await http.get<GroupDto>(fillApiPath(CONTACTS_API.group, { id }));
  return data;
}

export const useGroup = (id: string) =>
  useQuery({ queryKey: groupQueryKey(id), queryFn: () => getGroup(id) });
