import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths } from '@/config/paths';
import { requireUser } from '@/app/guards';
import { getUser } from '@/lib/session';

/**
 * The operator console's pages are for admins: a signed-in user without the role sees the 404
 * page (the server refuses every admin call with 403 anyway).
 */
export async function requireAdmin(args: LoaderFunctionArgs): Promise<null> {
  await requireUser(args);
  if (getUser()?.role !== 'admin') throw redirect(paths.notFound.getHref());
  return null;
}
