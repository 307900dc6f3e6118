import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_API,
  CONNECTIONS_API,
  type ConnectionCreate,
  type ConnectionDto,
  type ConnectionList,
  type ConnectionUpdate,
} from '@wren/contracts';
import { http } from '@/lib/http/client';
import { adminKeys } from './admin-api';

/**
 * Operators' carrier connections (issue 38 item 1): admin only, every change audited and applied
 * by every worker within CONNECTIONS_APPLY_SECONDS.
 */
export const connectionKeys = { all: ['admin', 'connections'] as const };

const named = (pattern: string, name: string) => pattern.replace(':name', encodeURIComponent(name));

export const useConnections = () =>
  useQuery({
    queryKey: connectionKeys.all,
    queryFn: async () => (await http.get<ConnectionList>(CONNECTIONS_API.list, { noOverlay: true })).data,
    // Pause and drain show here too; a change on another console shows within seconds.
    refetchInterval: 5_000,
  });

/** After a change: the list and the live status (binds) both move. */
function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: connectionKeys.all });
    void qc.invalidateQueries({ queryKey: adminKeys.system });
  };
}

export function useSaveConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (
      input: { name: null; body: ConnectionCreate } | { name: string; body: ConnectionUpdate },
    ) =>
      input.name === null
        ? (await http.post<ConnectionDto>(CONNECTIONS_API.list, input.body, { noOverlay: true })).data
        : (
            await http.put<ConnectionDto>(named(CONNECTIONS_API.one, input.name), input.body, {
              noOverlay: true,
            })
          ).data,
    onSuccess: refresh,
  });
}

export function useDeleteConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ name, reason }: { name: string; reason: string }) => {
      await http.request({
        method: 'delete',
        url: named(CONNECTIONS_API.one, name),
        data: { reason },
        noOverlay: true,
      });
    },
    onSuccess: refresh,
  });
}

/** Drain (no new messages, binds kept for receipts) or pause (binds closed once answered), on or off. */
export type ConnectionAction = 'drain' | 'undrain' | 'pause' | 'resume';

export function useConnectionAction() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({
      name,
      action,
      reason,
    }: {
      name: string;
      action: ConnectionAction;
      reason: string;
    }) => {
      const url =
        action === 'drain' || action === 'undrain'
          ? named(CONNECTIONS_API.drain, name)
          : named(action === 'pause' ? ADMIN_API.connectionPause : ADMIN_API.connectionResume, name);
      const method = action === 'undrain' ? 'delete' : 'post';
      await http.request({ method, url, data: reason ? { reason } : {}, noOverlay: true });
    },
    onSuccess: refresh,
  });
}
