import { useQuery } from '@tanstack/react-query';
import { API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { HttpError } from '@/lib/http/http-error';

export const pictureQueryKey = ['me', 'picture'] as const;

/** The profile picture, or null when the user has none (404). */
export async function getPicture(): Promise<Blob | null> {
  try {
    const { data } = await http.get<Blob>(API.mePicture, { responseType: 'blob' });
    return data;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

/** Loads the picture only when the user is known to have one. */
export function usePicture(hasPicture: boolean) {
  return useQuery({
    queryKey: pictureQueryKey,
    queryFn: getPicture,
    enabled: hasPicture,
    staleTime: Infinity,
  });
}
