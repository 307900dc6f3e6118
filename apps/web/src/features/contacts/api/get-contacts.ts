import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type ContactPage } from '@wren/contracts';
import { http } from '@/lib/http/client';

export type ContactSort = 'created' | 'name';
export interface ContactsParams {
  q: string;
  sort: ContactSort;
}

export const CONTACTS_PAGE_SIZE = 50;

export const contactsQueryKey = (groupId: string, params: ContactsParams) =>
  ['groups', groupId, 'contacts', params] as const;

/** One keyset page of a group's contacts; pass the previous page's nextCursor for the next. */
export async function getContacts(
  groupId: string,
  params: ContactsParams,
  cursor: string | null,
): Promise<ContactPage> {
  const { data } = await http.get<ContactPage>(fillApiPath(CONTACTS_API.contacts, { id: groupId }), {
    params: {
      q: params.q.trim() || undefined,
      sort: params.sort,
      cursor: cursor ?? undefined,
      limit: CONTACTS_PAGE_SIZE,
    },
  });
  return data;
}

/** The contacts, page by page ("Load more"); the previous list stays while a new search loads. */
export function useContacts(groupId: string, params: ContactsParams) {
  return useInfiniteQuery({
    queryKey: contactsQueryKey(groupId, params),
    queryFn: ({ pageParam }) => getContacts(groupId, params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}
