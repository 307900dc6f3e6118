import { API } from '@wren/contracts';
import { getCurrentUser } from '@/features/auth/api/get-current-user';
import { http } from '@/lib/http/client';
import { XSRF_COOKIE, readCookie } from '@/lib/http/xsrf';
import { clearSession, isAuthorized } from '@/lib/session';

let ready: Promise<void> | undefined;

async function checkSession(): Promise<void> {
  // The XSRF cookie first: every later non-GET call (a token refresh included) must echo it. The
  // server sets it with the app's page, so the extra call is only for a page served without it.
  if (readCookie(XSRF_COOKIE) === null) await http.get(API.xsrf).catch(() => undefined);
  if (!isAuthorized()) return;
  try {
    await getCurrentUser(); // a 401 here goes through the token refresh
  } catch {
    clearSession();
  }
}

/**
 * The start-up session check, run once; the first navigation waits for it. main.tsx starts it
 * while the app's code is still loading.
 */
export function sessionReady(): Promise<void> {
  ready ??= checkSession();
  return ready;
}
