import { useMutation } from '@tanstack/react-query';
import { API, type LoginResponse, type RegisterInput } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setSession } from '@/lib/session';

/** Creates an account; the server signs the new user in directly. */
export async function register(input: RegisterInput): Promise<LoginResponse> {
  const { data } = await http.post<LoginResponse>(API.register, input);
  setSession(data);
  return data;
}

export const useRegister = () => useMutation({ mutationFn: register });
