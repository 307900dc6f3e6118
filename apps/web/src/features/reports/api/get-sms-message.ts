import { useQuery } from '@tanstack/react-query';
import { MESSAGING_API, type MessageDto, type MessageEventDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { refreshInterval } from '../refresh-interval';
import { smsMessageQueryKey } from './query-keys';

export interface SmsMessageDetail {
  message: MessageDto;
  /** The status timeline, oldest first, with raw delivery receipts. */
  events: MessageEventDto[];
}

/** Off the busy overlay: it refreshes while open, and the drawer shows its own skeleton. */
export async function getSmsMessage(id: string): Promise<SmsMessageDetail> {
  const { data } = await http.get<SmsMessageDetail>(MESSAGING_API.logItem(id), { noOverlay: true });
  return data;
}

/** One message and its timeline; refreshes while its status can still change. */
export function useSmsMessage(id: string | null) {
  return useQuery({
    queryKey: smsMessageQueryKey(id ?? ''),
    queryFn: () => getSmsMessage(id!),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => {
      const message = query.state.data?.message;
      return message ? refreshInterval([message]) : false;
    },
  });
}
