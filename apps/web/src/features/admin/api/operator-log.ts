import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ROUTES_API, type OperatorLogPageDto, type OperatorMessageDetailDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

const logPath = (accountId: string) => ROUTES_API.accountLog.replace(':id', encodeURIComponent(accountId));

/** An account's SMS log as operators see it (connection, route, carrier cost), 25 a page. */
export function useOperatorLog(accountId: string, recipient: string) {
  return useInfiniteQuery({
    queryKey: ['admin', 'operator-log', accountId, recipient],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<OperatorLogPageDto>(logPath(accountId), {
          params: { cursor: pageParam ?? undefined, limit: 25, recipient: recipient || undefined },
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** One message with every event (routing decisions and raw receipts included). */
export function useOperatorMessage(accountId: string, messageId: string | null) {
  return useQuery({
    queryKey: ['admin', 'operator-message', accountId, messageId],
    enabled: messageId !== null,
    queryFn: async () =>
      (
        await http.get<OperatorMessageDetailDto>(
          `${logPath(accountId)}/${encodeURIComponent(messageId ?? '')}`,
        )
      ).data,
  });
}
