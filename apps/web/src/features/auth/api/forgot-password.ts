import { useMutation } from '@tanstack/react-query';
import { API, type ForgotPasswordInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Asks for a reset link. The server answers 202 whether or not the address is known. */
export async function forgotPassword(input: ForgotPasswordInput): Promise<void> {
  await http.post(API.forgotPassword, input);
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
