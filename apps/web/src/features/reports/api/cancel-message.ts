import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGING_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import type { SmsMessageDetail } from './get-sms-message';
import { BALANCE_QUERY_KEY, SMS_LOG_QUERY_ROOT, smsMessageQueryKey } from './query-keys';

/** Cancels a scheduled message (409 once it has started); its price is refunded. */
export async function cancelMessage(id: string): Promise<SmsMessageDetail> {
  const { data } = await http.post<SmsMessageDetail>(MESSAGING_API.cancel(id));
  return data;
}

export function useCancelMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMessage,
    onSuccess: async (detail) => {
      queryClient.setQueryData(smsMessageQueryKey(detail.message.id), detail);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: SMS_LOG_QUERY_ROOT }),
        queryClient.invalidateQueries({ queryKey: BALANCE_QUERY_KEY }),
      ]);
    },
  });
}
