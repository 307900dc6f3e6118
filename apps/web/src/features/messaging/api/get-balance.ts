import { useQuery } from '@tanstack/react-query';
import { MESSAGING_API } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { http } from '@/lib/http/client';

export interface Balance {
  balanceMinor: number;
  currency: string;
}

/** Shared with the rest of the app (the hub's UserAccountUpdated invalidates it). */
export const balanceQueryKey = ['balance'] as const;

export async function getBalance(): Promise<Balance> {
  const { data } = await http.get<Balance>(MESSAGING_API.balance);
  return data;
}

/**
 * The balance, asked for only by a role that may read it (billing:read): a sender or developer
 * sends without seeing it (the send pages leave it out; the server still refuses a send it does
 * not cover).
 */
export function useBalance() {
  const allowed = useCan('billing:read');
  const query = useQuery({
    queryKey: balanceQueryKey,
    queryFn: getBalance,
    staleTime: 10_000,
    enabled: allowed,
  });
  return Object.assign(query, { allowed });
}
