import { redirect, type LoaderFunctionArgs } from 'react-router';
import { loginHref, paths } from '@/config/paths';
import { isAuthorized } from '@/lib/session';
import { sessionReady } from './session-check';

/** Pages that need a signed-in user: others go to the login page, which remembers the address. */
export async function requireUser({ request }: LoaderFunctionArgs): Promise<null> {
  await sessionReady();
  if (!isAuthorized()) {
    const url = new URL(request.url);
    throw redirect(loginHref(`${url.pathname}${url.search}`));
  }
  return null;
}

/** The /auth area is for visitors; a signed-in user goes to the dashboard. */
export async function visitorsOnly(): Promise<null> {
  await sessionReady();
  if (isAuthorized()) throw redirect(paths.dashboard.getHref());
  return null;
}

/** Guards re-check on every navigation, so a cleared session is noticed at once. */
export const alwaysRevalidate = () => true;
