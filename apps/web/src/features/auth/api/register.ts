import { useMutation } from '@tanstack/react-query';
import { API, CAPTCHA_HEADER, type LoginResponse, type RegisterInput } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setSession } from '@/lib/session';

/**
 * Creates an account. The server either signs the new user in directly (201) or, when it confirms
 * registrations by email, answers 202 with only a message (it reveals nothing about existing
 * accounts). `captcha`: the ALTCHA payload.
 */
export async function register({
  captcha,
  ...input
}: RegisterInput & { captcha?: string }): Promise<LoginResponse | { message: string }> {
  const headers = captcha ? { [CAPTCHA_HEADER]: captcha } : {};
  const { data } = await http.post<LoginResponse | { message: string }>(API.register, input, { headers });
  if ('accessToken' in data) setSession(data);
  return data;
}

export const useRegister = () => useMutation({ mutationFn: register });

/** Follows the emailed link: creates the account and signs in. */
export async function confirmRegistration(token: string): Promise<LoginResponse> {
  const { data } = await http.post<LoginResponse>(API.registerConfirm, { token });
  setSession(data);
  return data;
}

export const useConfirmRegistration = () => useMutation({ mutationFn: confirmRegistration });
