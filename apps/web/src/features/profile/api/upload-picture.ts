import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API, PICTURE_MAX_BYTES, PICTURE_TYPES, type User } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { translate } from '@/lib/i18n';
import { setUser } from '@/lib/session';
import { pictureQueryKey } from './get-picture';

/** The client-side check of a picture, or null when it may be uploaded. */
export function pictureProblem(file: File): string | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type))
    return translate('Choose a PNG, JPEG, WebP or GIF image.');
  if (file.size > PICTURE_MAX_BYTES)
    return translate('The picture must be {{size}} MB or smaller.', {
      size: PICTURE_MAX_BYTES / 1024 / 1024,
    });
  return null;
}

/** Uploads the picture as multipart field `file`, reporting progress from 0 to 100. */
export async function uploadPicture(file: File, onProgress: (percent: number) => void): Promise<User> {
  const body = new FormData();
  body.append('file', file);
  const { data } = await http.post<User>(API.mePictureUpload, body, {
    onUploadProgress: (event) => onProgress(event.total ? Math.round((event.loaded / event.total) * 100) : 0),
  });
  setUser(data);
  return data;
}

export function useUploadPicture(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadPicture(file, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pictureQueryKey }),
  });
}
