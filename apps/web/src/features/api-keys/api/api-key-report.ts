import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_KEYS_API, type ApiKeyReport, type WebhookDeliveryDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const apiKeyReportKey = (id: string, days: number) => ['api-keys', 'report', id, days] as const;

export async function getApiKeyReport(id: string, days: number): Promise<ApiKeyReport> {
  // Refreshed every 15 s: a background read, off the full-screen busy overlay.
  const { data } = await http.get<ApiKeyReport>(API_KEYS_API.reportOf(id), {
    params: { days },
    noOverlay: true,
  });
  return data;
}

/** Requests per day by status class, messages and cost, top errors and the webhook delivery log. */
export const useApiKeyReport = (id: string, days: number) =>
  useQuery({
    queryKey: apiKeyReportKey(id, days),
    queryFn: () => getApiKeyReport(id, days),
    refetchInterval: 15_000,
  });

/** Sends a webhook delivery again now; answers with the delivery after the attempt. */
export function useReplayDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await http.post<WebhookDeliveryDto>(API_KEYS_API.replayOf(id))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys', 'report'] }),
  });
}
