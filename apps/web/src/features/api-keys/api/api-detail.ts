import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_KEYS_API, type ApiDetail } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const apiDetailKey = ['api-keys', 'detail'] as const;

export async function getApiDetail(): Promise<ApiDetail> {
  const { data } = await http.get<ApiDetail>(API_KEYS_API.detail);
  return data;
}

/** Base URL, account id, webhook secret and URL, the last API call (Profile → API detail). */
export const useApiDetail = () => useQuery({ queryKey: apiDetailKey, queryFn: getApiDetail });

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await http.post<ApiDetail>(API_KEYS_API.rotateWebhookSecret)).data,
    onSuccess: (data) => queryClient.setQueryData(apiDetailKey, data),
  });
}

export function useSetWebhookUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (webhookUrl: string | null) =>
      (await http.put<ApiDetail>(API_KEYS_API.webhookSettings, { webhookUrl })).data,
    onSuccess: (data) => queryClient.setQueryData(apiDetailKey, data),
  });
}
