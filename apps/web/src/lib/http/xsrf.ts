export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Non-GET/HEAD requests with relative URLs carry the cross-site request token (SPEC.md §7). */
export function needsXsrfToken(method: string | undefined, url: string | undefined): boolean {
  const verb = (method ?? 'get').toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') return false;
  return !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url ?? '');
}
