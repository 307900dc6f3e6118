import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INBOUND_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { SUPPRESSIONS_QUERY_KEY } from './inbound-keys';

/** Takes a number off the suppression list: sends reach it again. */
export async function removeSuppression(phone: string): Promise<void> {
  await http.delete(INBOUND_API.suppressionOf(phone));
}

export function useRemoveSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSuppression,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUPPRESSIONS_QUERY_KEY }),
  });
}
