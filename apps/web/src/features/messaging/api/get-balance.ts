import { useQuery } from '@tanstack/react-query';
import { MESSAGING_API } from '@wren/contracts';
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

export const useBalance = () =>
  useQuery({ queryKey: balanceQueryKey, queryFn: getBalance, staleTime: 10_000 });
