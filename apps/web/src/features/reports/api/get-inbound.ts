import { useInfiniteQuery } from '@tanstack/react-query';
import { INBOUND_API, type InboundPage } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { inboundQueryKey, type InboundQueryFilters } from './inbound-keys';

export const INBOUND_PAGE_SIZE = 50;

/** One page of the inbox, newest first; `cursor` is the previous page's `nextCursor`. */
export async function getInbound(filters: InboundQueryFilters, cursor?: string): Promise<InboundPage> {
  const { data } = await http.get<InboundPage>(INBOUND_API.list, {
    params: { ...filters, cursor, limit: INBOUND_PAGE_SIZE },
    noOverlay: true,
  });
  return data;
}

/** The inbox as keyset pages ("Load more"); the hub's InboundSmsReceived push refreshes it. */
export function useInbound(filters: InboundQueryFilters) {
  return useInfiniteQuery({
    queryKey: inboundQueryKey(filters),
    queryFn: ({ pageParam }) => getInbound(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}
