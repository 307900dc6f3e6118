import { useMutation } from '@tanstack/react-query';
import { API, CAPTCHA_HEADER, type ForgotPasswordInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Asks for a reset link. The server answers 202 whether or not the address is known. */
export async function forgotPassword({
  captcha,
  ...input
}: ForgotPasswordInput & { captcha?: string }): Promise<void> {
  await http.post(API.forgotPassword, input, { headers: captcha ? { [CAPTCHA_HEADER]: captcha } : {} });
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
