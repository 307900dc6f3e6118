import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillApiPath, SENDER_ID_API } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function deleteSenderId(id: string): Promise<void> {
  await http.delete(fillApiPath(SENDER_ID_API.item, { id }));
}

export function useDeleteSenderId() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSenderId,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sender-ids'] }),
  });
}
