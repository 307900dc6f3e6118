import { useQuery } from '@tanstack/react-query';
import { CONTACTS_API, type GroupDto, type GroupList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['groups'] root, which the hub invalidates on GroupListUpdated. */
export const groupsQueryKey = ['groups', 'list'] as const;

export async function getGroups(): Promise<GroupDto[]> {
  const { data } = await http.get<GroupList>(CONTACTS_API.groups);
  return data.items;
}

export const useGroups = () => useQuery({ queryKey: groupsQueryKey, queryFn: getGroups });
