import { useQuery } from '@tanstack/react-query';
import { useCan } from '@/lib/account-role';
import { SENDER_ID_API, type SenderIdDto, type SenderIdList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['sender-ids'] root, which the hub invalidates on SenderIdUpdated. */
export const senderIdsQueryKey = ['sender-ids', 'list'] as const;

export async function getSenderIds(): Promise<SenderIdDto[]> {
  const { data } = await http.get<SenderIdList>(SENDER_ID_API.list);
  return data.items;
}

/**
 * The account's sender IDs: the one query every screen shares (the Sender ID page, the send
 * forms). Pushes and this feature's mutations invalidate it, so a minute of staleness only saves
 * refetches on navigation.
 */
/** Asked only of a role with sender-ids:read (a developer's sends use the platform's sender). */
export const useSenderIds = () =>
  useQuery({
    queryKey: senderIdsQueryKey,
    queryFn: getSenderIds,
    staleTime: 60_000,
    enabled: useCan('sender-ids:read'),
  });
