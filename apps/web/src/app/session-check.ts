import { API } from '@wren/contracts';
import { getCurrentUser } from '@/features/auth/api/get-current-user';
import { http } from '@/lib/http/client';
import { clearSession, isAuthorized } from '@/lib/session';

let ready: Promise<void> | undefined;

async function checkSession(): Promise<void> {
  // The XSRF cookie first: every later non-GET call must echo it.
  await http.get(API.xsrf).catch(() => undefined);
  if (!isAuthorized()) return;
  try {
    await getCurrentUser(); // a 401 here goes through the token refresh
  } catch {
    clearSession();
  }
}

/** The start-up session check, run once; the first navigation waits for it. */
export function sessionReady(): Promise<void> {
  ready ??= checkSession();
  return ready;
}
