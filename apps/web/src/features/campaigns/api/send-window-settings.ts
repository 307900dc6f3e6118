import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SEND_WINDOWS_API, type SendWindowSettings, type SendWindowSettingsDto } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { http } from '@/lib/http/client';

const key = ['send-window-settings'] as const;

/** The account's default send window (issue 41), for a role that sends. */
export function useSendWindowSettings() {
  const allowed = useCan('messages:send');
  const query = useQuery({
    queryKey: key,
    queryFn: async () => (await http.get<SendWindowSettingsDto>(SEND_WINDOWS_API.settings)).data,
    enabled: allowed,
  });
  return Object.assign(query, { allowed });
}

/** Saves the account's default send window (owners and admins: sender-ids:manage). */
export function useSaveSendWindowSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: SendWindowSettings) =>
      (await http.put<SendWindowSettingsDto>(SEND_WINDOWS_API.settings, input)).data,
    onSuccess: (data) => client.setQueryData(key, data),
  });
}
