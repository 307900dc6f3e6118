import { useQuery } from '@tanstack/react-query';
import { MEMBERS_API, type MyAccount } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { getAccessToken } from '@/lib/session';

/** The accounts the user belongs to and their role in each (GET /api/me/accounts; issue 39). */

export const myAccountsKey = ['me', 'accounts'] as const;

/** Keyed by the access token: a switch to another account reads them again. */
export function useMyAccounts() {
  return useQuery({
    queryKey: [...myAccountsKey, getAccessToken()],
    queryFn: async () => (await http.get<{ items: MyAccount[] }>(MEMBERS_API.myAccounts)).data.items,
    staleTime: 60_000,
  });
}
