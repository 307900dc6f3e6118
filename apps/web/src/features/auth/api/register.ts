import { useMutation } from '@tanstack/react-query';
import { API, CAPTCHA_HEADER, type LoginResponse, type RegisterInput } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setSession } from '@/lib/session';

/** Creates an account; the server signs the new user in directly. `captcha`: the ALTCHA payload. */
export async function register({
  captcha,
  ...input
}: RegisterInput & { captcha?: string }): Promise<LoginResponse> {
  const headers = captcha ? { [CAPTCHA_HEADER]: captcha } : {};
  const { data } = await http.post<LoginResponse>(API.register, input, { headers });
  setSession(data);
  return data;
}

export const useRegister = () => useMutation({ mutationFn: register });
