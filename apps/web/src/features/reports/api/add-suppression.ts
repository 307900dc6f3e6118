import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INBOUND_API, type AddSuppressionInput, type SuppressionDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { SUPPRESSIONS_QUERY_KEY } from './inbound-keys';

/** Adds a number to the suppression list by hand (a number already on it is returned as is). */
export async function addSuppression(input: AddSuppressionInput): Promise<SuppressionDto> {
  const { data } = await http.post<SuppressionDto>(INBOUND_API.suppressions, input);
  return data;
}

export function useAddSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSuppression,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUPPRESSIONS_QUERY_KEY }),
  });
}
