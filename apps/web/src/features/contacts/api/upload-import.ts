import { useMutation } from '@tanstack/react-query';
import { CONTACTS_API, fillApiPath, type ImportUploadDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

/**
 * Uploads a contacts file (multipart field `file`) for preview, reporting progress from 0 to 100.
 * The URL contains `fileUpload`, so the page shows this progress instead of the busy overlay.
 */
export async function uploadImport(
  groupId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<ImportUploadDto> {
  const body = new FormData();
  body.append('file', file);
  const { data } = await http.post<ImportUploadDto>(fillApiPath(CONTACTS_API.upload, { id: groupId }), body, {
    onUploadProgress: (event) => onProgress(event.total ? Math.round((event.loaded / event.total) * 100) : 0),
  });
  return data;
}

export function useUploadImport(groupId: string, onProgress: (percent: number) => void) {
  return useMutation({ mutationFn: (file: File) => uploadImport(groupId, file, onProgress) });
}
