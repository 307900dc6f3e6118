import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SMPP_ACCOUNTS_API,
  type SmppAccountCreated,
  type SmppAccountDto,
  type SmppAccountInput,
  type SmppAccountUpdate,
  type SmppBindList,
  type SmppServerInfo,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** SMPP accounts (issue 37): the logins customers bind to Wren's SMPP server with. */

export const smppRoot = ['smpp-accounts'] as const;
export const smppListKey = [...smppRoot, 'list'] as const;
export const smppAccountKey = (id: string) => [...smppRoot, 'item', id] as const;
export const smppBindsKey = (id: string) => [...smppRoot, 'binds', id] as const;
export const smppServerKey = ['smpp-server'] as const;

const at = (pattern: string, id: string) => pattern.replace(':id', encodeURIComponent(id));

/** How often the live figures (binds, receipts waiting) are read again while a page is open. */
export const SMPP_REFRESH_MS = 5_000;

export const useSmppAccounts = () =>
  useQuery({
    queryKey: smppListKey,
    queryFn: async () =>
      (await http.get<{ data: SmppAccountDto[] }>(SMPP_ACCOUNTS_API.list, { noOverlay: true })).data.data,
    refetchInterval: SMPP_REFRESH_MS,
  });

export const useSmppAccount = (id: string) =>
  useQuery({
    queryKey: smppAccountKey(id),
    queryFn: async () =>
      (await http.get<SmppAccountDto>(at(SMPP_ACCOUNTS_API.item, id), { noOverlay: true })).data,
    refetchInterval: SMPP_REFRESH_MS,
  });

/** The account's live binds on every API node; read again every few seconds while shown. */
export const useSmppBinds = (id: string, enabled = true) =>
  useQuery({
    queryKey: smppBindsKey(id),
    queryFn: async () =>
      (await http.get<SmppBindList>(at(SMPP_ACCOUNTS_API.binds, id), { noOverlay: true })).data,
    refetchInterval: SMPP_REFRESH_MS,
    enabled,
  });

/** Host, ports and TLS of Wren's SMPP listener. */
export const useSmppServer = () =>
  useQuery({
    queryKey: smppServerKey,
    queryFn: async () => (await http.get<SmppServerInfo>(SMPP_ACCOUNTS_API.server)).data,
    staleTime: 5 * 60_000,
  });

function useSmppMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: smppRoot }),
  });
}

export const useCreateSmppAccount = () =>
  useSmppMutation(
    async (input: SmppAccountInput) =>
      (await http.post<SmppAccountCreated>(SMPP_ACCOUNTS_API.list, input)).data,
  );

export const useUpdateSmppAccount = () =>
  useSmppMutation(
    async ({ id, patch }: { id: string; patch: SmppAccountUpdate }) =>
      (await http.patch<SmppAccountDto>(at(SMPP_ACCOUNTS_API.item, id), patch)).data,
  );

export const useRotateSmppPassword = () =>
  useSmppMutation(
    async (id: string) => (await http.post<SmppAccountCreated>(at(SMPP_ACCOUNTS_API.rotate, id))).data,
  );

export const useSetSmppDisabled = () =>
  useSmppMutation(
    async ({ id, disabled }: { id: string; disabled: boolean }) =>
      (
        await http.post<SmppAccountDto>(
          at(disabled ? SMPP_ACCOUNTS_API.disable : SMPP_ACCOUNTS_API.enable, id),
        )
      ).data,
  );

export function useDeleteSmppAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await http.delete(at(SMPP_ACCOUNTS_API.item, id));
    },
    // The deleted account's own queries are dropped, not read again (they would 404).
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: smppAccountKey(id) });
      queryClient.removeQueries({ queryKey: smppBindsKey(id) });
      return queryClient.invalidateQueries({ queryKey: smppListKey });
    },
  });
}
