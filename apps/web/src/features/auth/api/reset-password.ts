import { useMutation } from '@tanstack/react-query';
import { API, type ResetPasswordInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function resetPassword(input: ResetPasswordInput): Promise<void> {
  await http.post(API.resetPassword, input);
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
