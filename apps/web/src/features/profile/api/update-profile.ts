import { useMutation } from '@tanstack/react-query';
import { API, type UpdateProfileInput, type User } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setUser } from '@/lib/session';

export async function updateProfile(input: UpdateProfileInput): Promise<User> {
  const { data } = await http.patch<User>(API.me, input);
  setUser(data);
  return data;
}

export const useUpdateProfile = () => useMutation({ mutationFn: updateProfile });
