import { useMutation } from '@tanstack/react-query';
import { API, type ChangePasswordInput } from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Changes the password; the server signs out every other session. */
export async function changePassword(input: ChangePasswordInput): Promise<void> {
  await http.post(API.mePassword, input);
}

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
