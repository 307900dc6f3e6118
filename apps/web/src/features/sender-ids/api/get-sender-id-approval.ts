import { useQuery } from '@tanstack/react-query';
import type { SenderIdList } from '@wren/contracts';
import { fetchSenderIdList } from './get-sender-ids';

/** Outside the ['sender-ids'] root: these are server configuration, not the account's list. */
export const senderIdApprovalQueryKey = ['sender-id-approval'] as const;

export type SenderIdSettings = Pick<SenderIdList, 'approval' | 'platformSender'>;

export async function getSenderIdSettings(): Promise<SenderIdSettings> {
  const data = await fetchSenderIdList();
  return { approval: data.approval, platformSender: data.platformSender };
}

const useSenderIdSettings = <T>(select: (s: SenderIdSettings) => T) =>
  useQuery({ queryKey: senderIdApprovalQueryKey, queryFn: getSenderIdSettings, staleTime: Infinity, select });

/** How this server approves new sender IDs (SENDER_ID_APPROVAL): `manual` review or `auto`. */
export const useSenderIdApproval = () => useSenderIdSettings((s) => s.approval);

/** This server's shared sender (DEFAULT_SENDER), which every account may send from. */
export const usePlatformSender = () => useSenderIdSettings((s) => s.platformSender);
