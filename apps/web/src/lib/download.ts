import { http, type RequestOptions } from './http/client';

/** The file name of a Content-Disposition header (RFC 6266: `filename*` wins), or the fallback. */
export function fileNameFrom(disposition: string | null | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // a malformed escape: fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || fallback;
}

/** How long the object URL of a saved blob lives (the browser has started the download by then). */
const REVOKE_AFTER_MS = 10_000;

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/**
 * Fetches a file through the app's HTTP client (so it carries the bearer token; a plain link
 * would not) and downloads it under the server's file name, or `fallbackName`. Resolves to the
 * name it was saved as. `config` adds query parameters and the like.
 */
export async function downloadFile(
  url: string,
  fallbackName: string,
  config: Omit<RequestOptions, 'responseType'> = {},
): Promise<string> {
  const response = await http.get<Blob>(url, { ...config, responseType: 'blob' });
  const fileName = fileNameFrom(response.headers.get('content-disposition'), fallbackName);
  saveBlob(response.data, fileName);
  return fileName;
}
