import { API, type User } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setUser } from '@/lib/session';

/** Loads the signed-in user and keeps the stored copy current. */
export async function getCurrentUser(): Promise<User> {
  const { data } = await http.get<User>(API.me);
  setUser(data);
  return data;
}
