import { useQuery } from '@tanstack/react-query';
import { SENDER_ID_API, type SenderIdDto, type SenderIdList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the sender-ids root, so SenderIdUpdated (which invalidates ['sender-ids']) refreshes it. */
export const senderIdsQueryKey = ['sender-ids', 'list'] as const;

export async function getSenderIds(): Promise<SenderIdDto[]> {
  const { data } = await http.get<SenderIdList>(SENDER_ID_API.list);
  return data.items;
}

export const useSenderIds = () =>
  useQuery({ queryKey: senderIdsQueryKey, queryFn: getSenderIds, staleTime: 60_000 });
