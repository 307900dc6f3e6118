import { useMutation } from '@tanstack/react-query';
import { API, type LoginInput, type LoginResponse, type TwoFactorChallenge } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setSession } from '@/lib/session';

/**
 * Signs in and stores the user and tokens, or answers the two-factor step the password leads to
 * (then nothing is stored until that step is done).
 */
export async function login(input: LoginInput): Promise<LoginResponse | TwoFactorChallenge> {
  const { data } = await http.post<LoginResponse | TwoFactorChallenge>(API.login, input);
  if ('accessToken' in data) setSession(data);
  return data;
}

export const useLogin = () => useMutation({ mutationFn: login });
