import { useQuery } from '@tanstack/react-query';
import { API } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** A recent event on the account, e.g. a sign-in or a password change. */
export interface AccountEvent {
  id: string;
  kind: string;
  message: string;
  createdAt: string;
}

export async function getAccountEvents(): Promise<AccountEvent[]> {
  const { data } = await http.get<{ items: AccountEvent[] }>(API.meEvents);
  return data.items;
}

/** Loads the events while `enabled` (the menu is open). */
export function useAccountEvents(enabled: boolean) {
  return useQuery({ queryKey: ['me', 'events'], queryFn: getAccountEvents, enabled, staleTime: 15_000 });
}
