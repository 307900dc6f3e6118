import { API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { clearSession } from '@/lib/session';

/** Work to finish before the sign-out call, e.g. stopping the live-update hub connection. */
export type BeforeSignOut = () => unknown;

export interface LogoutOptions {
  beforeSignOut?: BeforeSignOut[];
}

/**
 * Signs out (SPEC.md §4): runs the beforeSignOut hooks, calls the sign-out service with an
 * empty body, and clears all stored data whether or not that call succeeds. A failure of the
 * call propagates, so the caller can reload the page.
 */
export async function logout({ beforeSignOut = [] }: LogoutOptions = {}): Promise<void> {
  for (const hook of beforeSignOut) {
    try {
      await hook();
    } catch (error) {
      console.error('A sign-out hook failed:', error);
    }
  }
  try {
    await http.post(API.logout);
  } finally {
    clearSession();
  }
}
