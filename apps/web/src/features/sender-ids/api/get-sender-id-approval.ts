import { useQuery } from '@tanstack/react-query';
import { SENDER_ID_API, type SenderIdApprovalMode, type SenderIdList } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Outside the ['sender-ids'] root: the mode is server configuration, not the account's list. */
export const senderIdApprovalQueryKey = ['sender-id-approval'] as const;

export async function getSenderIdApproval(): Promise<SenderIdApprovalMode> {
  const { data } = await http.get<SenderIdList>(SENDER_ID_API.list);
  return data.approval;
}

/** How this server approves new sender IDs (SENDER_ID_APPROVAL): `manual` review or `auto`. */
export const useSenderIdApproval = () =>
  useQuery({ queryKey: senderIdApprovalQueryKey, queryFn: getSenderIdApproval, staleTime: Infinity });
