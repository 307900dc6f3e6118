import { useQuery } from '@tanstack/react-query';
import { useCan } from '@/lib/account-role';
import { SENDER_ID_API, type SenderIdDto, type SenderIdList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Under the ['sender-ids'] root, which the hub invalidates on SenderIdUpdated. */
export const senderIdsQueryKey = ['sender-ids', 'list'] as const;

let inFlight: Promise<SenderIdList> | null = null;

/**
 * GET the sender ID list, one request for the callers of the same moment: the list and the server's
 * sender ID settings are two queries of one answer, and Single SMS asked for it twice on every load
 * (issue 47, defect 7).
 */
export function fetchSenderIdList(): Promise<SenderIdList> {
  inFlight ??= http.get<SenderIdList>(SENDER_ID_API.list).then(
    ({ data }) => {
      inFlight = null;
      return data;
    },
    (err: unknown) => {
      inFlight = null;
      throw err;
    },
  );
  return inFlight;
}

export async function getSenderIds(): Promise<SenderIdDto[]> {
  return (await fetchSenderIdList()).items;
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
