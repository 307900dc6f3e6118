import { useContext, useSyncExternalStore } from 'react';
import { QueryClientContext, useQuery } from '@tanstack/react-query';
import { SUB_ACCOUNTS_API, type AccountStatusSummary } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const ACCOUNT_STATUS_KEY = ['account-status'] as const;

/**
 * The member's own account as sub-accounts see it (GET /api/account/status, any member): locked by
 * the account that manages it (and why), and whether it is a child (no Sub-accounts entry then).
 * Small and on its own, for the layout's banner and the sidebar.
 */
export function useAccountStatus(enabled = true) {
  return useQuery({
    queryKey: ACCOUNT_STATUS_KEY,
    enabled,
    staleTime: 60_000,
    queryFn: async () => (await http.get<AccountStatusSummary>(SUB_ACCOUNTS_API.status)).data,
  });
}

/**
 * Whether the signed-in account is a child, read from the cached status (fetched by the layout's
 * banner) without a request of its own; false before it is known or outside a QueryClientProvider.
 */
export function useIsChildAccount(): boolean {
  const client = useContext(QueryClientContext);
  return useSyncExternalStore(
    (onChange) => client?.getQueryCache().subscribe(onChange) ?? (() => undefined),
    () => client?.getQueryData<AccountStatusSummary>(ACCOUNT_STATUS_KEY)?.isChild ?? false,
  );
}
