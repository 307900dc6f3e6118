import { useMutation } from '@tanstack/react-query';
import { API, type LoginInput, type LoginResponse } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setSession } from '@/lib/session';

/** Signs in and stores the user and tokens. */
export async function login(input: LoginInput): Promise<LoginResponse> {
  const { data } = await http.post<LoginResponse>(API.login, input);
  setSession(data);
  return data;
}

export const useLogin = () => useMutation({ mutationFn: login });
