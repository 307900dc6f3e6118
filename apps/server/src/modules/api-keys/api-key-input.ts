import { FieldError } from '../../platform/errors';
import { canonicalEntry } from './ip-allowlist';

/** A key's IP allowlist in canonical form, de-duplicated; a FieldError naming the entries that are not IPs or CIDRs. */
export function canonicalAllowlist(list: readonly string[]) {
  const out: string[] = [];
  const bad: string[] = [];
  for (const e of list) {
    const c = canonicalEntry(e);
    if (c) out.push(c);
    else bad.push(e);
  }
  if (bad.length) {
    throw new FieldError({
      ipAllowlist: [
        `Not an IP address or CIDR: ${bad.slice(0, 3).join(', ')} (e.g. 203.0.113.0/24 or 2001:db8::/32)`,
      ],
    });
  }
  return [...new Set(out)];
}

/** Refuses an expiry that is not in the future (at `now`, epoch ms). */
export function checkExpiry(expiresAt: string | null | undefined, now: number) {
  if (expiresAt && new Date(expiresAt).getTime() <= now) {
    throw new FieldError({ expiresAt: ['Choose a time in the future'] });
  }
}
