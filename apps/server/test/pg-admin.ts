import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data-test');

/** The same server URL pointing at another database (default: the maintenance db `postgres`). */
export function adminUrl(url: string, database = 'postgres'): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
