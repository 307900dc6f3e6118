import { useInfiniteQuery } from '@tanstack/react-query';
import { MESSAGING_API, type SmsLogPage } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { refreshInterval } from '../refresh-interval';
import { smsLogQueryKey, type SmsLogQueryFilters } from './query-keys';

export const SMS_LOG_PAGE_SIZE = 50;

/**
 * One page of the log, newest first; `cursor` is the previous page's `nextCursor`. Off the busy
 * overlay: the log refreshes every few seconds and shows its own skeletons and spinner.
 */
export async function getSmsLog(filters: SmsLogQueryFilters, cursor?: string): Promise<SmsLogPage> {
  const { data } = await http.get<SmsLogPage>(MESSAGING_API.log, {
    params: { ...filters, cursor, limit: SMS_LOG_PAGE_SIZE },
    noOverlay: true,
  });
  return data;
}

/** The log as keyset pages ("Load more"); refreshes while a loaded message can still change. */
export function useSmsLog(filters: SmsLogQueryFilters) {
  return useInfiniteQuery({
    queryKey: smsLogQueryKey(filters),
    queryFn: ({ pageParam }) => getSmsLog(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => refreshInterval(query.state.data?.pages.flatMap((p) => p.items) ?? []),
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}
