import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SENDER_ID_API, type CreateSenderIdInput, type SenderIdDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Asks for a new sender ID; it starts as `requested` unless the server approves on request. */
export async function createSenderId(input: CreateSenderIdInput): Promise<SenderIdDto> {
  const { data } = await http.post<SenderIdDto>(SENDER_ID_API.list, input);
  return data;
}

export function useCreateSenderId() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSenderId,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sender-ids'] }),
  });
}
