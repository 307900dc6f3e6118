import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API, type User } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { setUser } from '@/lib/session';
import { pictureQueryKey } from './get-picture';

/** Removes the profile picture; the avatar falls back to the initials. */
export async function deletePicture(user: User): Promise<void> {
  await http.delete(API.mePicture);
  setUser({ ...user, hasPicture: false });
}

export function useDeletePicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePicture,
    onSuccess: () => queryClient.removeQueries({ queryKey: pictureQueryKey }),
  });
}
