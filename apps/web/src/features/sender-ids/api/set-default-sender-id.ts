import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillApiPath, SENDER_ID_API, type SenderIdDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Makes an approved sender ID the account's default (422 for one not approved). */
export async function setDefaultSenderId(id: string): Promise<SenderIdDto> {
  const { data } = await http.post<SenderIdDto>(fillApiPath(SENDER_ID_API.setDefault, { id }));
  return data;
}

export function useSetDefaultSenderId() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultSenderId,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sender-ids'] }),
  });
}
