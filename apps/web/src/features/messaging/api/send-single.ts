import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGING_API, type SendResult, type SendSingleInput } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { balanceQueryKey, type Balance } from './get-balance';

/** Queues (or schedules) one message to 1–100 recipients; the price is debited at once. */
export async function sendSingle(input: SendSingleInput): Promise<SendResult> {
  const { data } = await http.post<SendResult>(MESSAGING_API.sendSingle, input);
  return data;
}

/** The SMS log queries (named by the reports feature) start with this key. */
const SMS_LOG_ROOT = ['sms-log'] as const;

export function useSendSingle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSingle,
    onSuccess: async (result) => {
      queryClient.setQueryData<Balance>(balanceQueryKey, {
        balanceMinor: result.balanceMinor,
        currency: result.currency,
      });
      await queryClient.invalidateQueries({ queryKey: SMS_LOG_ROOT });
    },
  });
}
