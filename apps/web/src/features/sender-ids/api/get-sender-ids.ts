import { useQuery } from '@tanstack/react-query';
import { SENDER_ID_API, type SenderIdDto, type SenderIdList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['sender-ids'] root, which the hub invalidates on SenderIdUpdated. */
export const senderIdsQueryKey = ['sender-ids', 'list'] as const;

export async function getSenderIds(): Promise<SenderIdDto[]> {
  const { data } = await http.get<SenderIdList>(SENDER_ID_API.list);
  return data.items;
}

export const useSenderIds = () => useQuery({ queryKey: senderIdsQueryKey, queryFn: getSenderIds });
