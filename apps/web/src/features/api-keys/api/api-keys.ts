import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_KEYS_API,
  type ApiKeyCreated,
  type ApiKeyDto,
  type ApiKeyInput,
  type ApiKeyList,
  type ApiKeyUpdate,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

export const apiKeysRoot = ['api-keys'] as const;
export const apiKeyListKey = ['api-keys', 'list'] as const;
export const apiKeyKey = (id: string) => ['api-keys', 'item', id] as const;

export async function getApiKeys(): Promise<ApiKeyDto[]> {
  const { data } = await http.get<ApiKeyList>(API_KEYS_API.list);
  return data.items;
}

/** The account's API keys (prefix, scopes, last use, requests in 24 h, status). */
export const useApiKeys = () => useQuery({ queryKey: apiKeyListKey, queryFn: getApiKeys });

export async function getApiKey(id: string): Promise<ApiKeyDto> {
  const { data } = await http.get<ApiKeyDto>(API_KEYS_API.itemOf(id));
  return data;
}

export const useApiKey = (id: string) => useQuery({ queryKey: apiKeyKey(id), queryFn: () => getApiKey(id) });

function useKeyMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysRoot }),
  });
}

export const useCreateApiKey = () =>
  useKeyMutation(
    async (input: ApiKeyInput) => (await http.post<ApiKeyCreated>(API_KEYS_API.list, input)).data,
  );

export const useUpdateApiKey = () =>
  useKeyMutation(
    async ({ id, patch }: { id: string; patch: ApiKeyUpdate }) =>
      (await http.patch<ApiKeyDto>(API_KEYS_API.itemOf(id), patch)).data,
  );

export const useRevokeApiKey = () =>
  useKeyMutation(async (id: string) => (await http.post<ApiKeyDto>(API_KEYS_API.revokeOf(id))).data);

export const useRotateApiKey = () =>
  useKeyMutation(async (id: string) => (await http.post<ApiKeyCreated>(API_KEYS_API.rotateOf(id))).data);
