import { useQuery } from '@tanstack/react-query';
import { MESSAGING_API, type MessageDto, type SmsLogPage } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { dashboardKeys, FALLBACK_POLL_MS } from './query-keys';

export const RECENT_MESSAGES_LIMIT = 5;

/**
 * The latest messages of the account, newest first (GET /api/sms/log?limit=5). Off the busy
 * overlay: it reloads in the background after pushes; the card shows a skeleton.
 */
export async function getRecentMessages(): Promise<MessageDto[]> {
  const { data } = await http.get<SmsLogPage>(MESSAGING_API.log, {
    params: { limit: RECENT_MESSAGES_LIMIT },
    noOverlay: true,
  });
  return data.items;
}

/**
 * Refetched when the hub reports delivery changes (it invalidates ['dashboard']), and polled while
 * the hub is not connected.
 */
export const useRecentMessages = (hubConnected: boolean, enabled = true) =>
  useQuery({
    queryKey: dashboardKeys.recent,
    queryFn: getRecentMessages,
    enabled,
    staleTime: 0,
    refetchInterval: hubConnected ? false : FALLBACK_POLL_MS,
  });
