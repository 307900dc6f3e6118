import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FieldError } from '../../platform/errors';

/**
 * SSRF guard for webhook URLs (a key's or the account's default URL, a message's `callbackUrl`).
 * A customer must not make Wren's servers call its own network. Allow-list: an address may receive
 * webhooks only when it is plainly public, i.e. ipaddr.js classes it `unicast` and it does not
 * embed an IPv4 address that is not. Every IPv6 form that carries an IPv4 address is read as that
 * address (IPv4-mapped and -compatible, IPv4-translated, NAT64, 6to4, Teredo, ISATAP), so
 * `[::127.0.0.1]` is loopback like 127.0.0.1. Checked twice: when a URL is saved or accepted (the
 * literal host), and when a delivery connects (every address the name resolves to, by the lookup
 * the socket itself uses, so a DNS answer that changes in between cannot slip through).
 */

/**
 * The DNS lookup deliveries resolve names with (a test replaces `lookup` to play a DNS server
 * whose answers point at internal addresses).
 */
export const resolver = { lookup: dnsLookup };

/**
 * An address in the canonical text the WHATWG URL parser gives it (the form a URL's host takes):
 * 0177.0.0.1, 0x7f.0.0.1, 127.1 and 2130706433 are 127.0.0.1; ::127.0.0.1 is ::7f00:1. Brackets
 * are optional. Null when it is not an IP address.
 */
export function canonicalAddress(address: string): string | null {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (!bare || /[/?#@\s]/.test(bare)) return null;
  let host: string;
  try {
    host = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, and the name of the form, or null for none. Parts
 * are the eight 16-bit groups.
 */
function embeddedIPv4(p: number[]): { form: string; addresses: ipaddr.IPv4[] } | null {
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && p[5] === 0xffff) return { form: 'IPv4-mapped', addresses: [v4(p[6], p[7])] };
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0)
    return { form: 'IPv4-translated', addresses: [v4(p[6], p[7])] };
  if (zero(0, 6)) return { form: 'IPv4-compatible', addresses: [v4(p[6], p[7])] };
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return { form: 'NAT64', addresses: [v4(p[6], p[7])] };
  if (p[0] === 0x2002) return { form: '6to4', addresses: [v4(p[1], p[2])] };
  if (p[0] === 0x2001 && p[1] === 0) {
    // Teredo: the server is bits 32-63, the client the last 32 bits inverted.
    return { form: 'Teredo', addresses: [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)] };
  }
  // ISATAP interface identifier (::0:5efe:a.b.c.d, ::200:5efe:a.b.c.d) under any prefix.
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe)
    return { form: 'ISATAP', addresses: [v4(p[6], p[7])] };
  return null;
}

/** The ipaddr.js IPv6 ranges that may hold a public address: plain unicast and the IPv4 embeddings. */
const PUBLIC_IPV6_RANGES = new Set(['unicast', 'ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

const is = (address: string, range: string) => {
  const what = describe(range);
  return `${address} is ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} address`;
};

/** Why an address may not receive webhooks, or null when it is a plainly public unicast address. */
export function blockedAddress(address: string): string | null {
  const canonical = canonicalAddress(address);
  if (!canonical) return `${address} is not an IP address`;
  const addr = ipaddr.parse(canonical);
  if (addr.kind() === 'ipv4') {
    const range = addr.range();
    return range === 'unicast' ? null : is(canonical, range);
  }
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  if (!PUBLIC_IPV6_RANGES.has(range) || range === 'unspecified') return is(canonical, range);
  // Inside 64:ff9b::/32 only the well-known NAT64 prefix (/96) is public; 64:ff9b:1::/48 is for local use.
  if (v6.parts[0] === 0x64 && v6.parts[1] === 0xff9b && !v6.parts.slice(2, 6).every((x) => x === 0))
    return `${canonical} is a local-use NAT64 address`;
  const embedded = embeddedIPv4(v6.parts);
  if (!embedded) return range === 'unicast' ? null : is(canonical, range);
  for (const inner of embedded.addresses) {
    const innerRange = inner.range();
    if (innerRange !== 'unicast') {
      return `${is(canonical, innerRange)} (${embedded.form}, embeds ${inner.toString()})`;
    }
  }
  return null; // a public IPv4 address written in an IPv6 form
}

function describe(range: string) {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
      return 'private network';
    case 'linkLocal':
      return 'link-local';
    case 'carrierGradeNat':
      return 'shared (carrier-grade NAT)';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
    case 'broadcast':
      return 'multicast/broadcast';
    default:
      return `reserved (${range})`;
  }
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

/**
 * Checks a webhook URL as typed: http(s) only, no user name or password, and a host that is a
 * public IP address or a public DNS name. Returns the reason it is refused, or null.
 * `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, for development and tests) skips the address rules.
 */
export function webhookUrlProblem(
  raw: string,
  allowPrivate: boolean,
  /** Also refuse internal-looking host names (at save time; a delivery checks what they resolve to). */
  names = true,
): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Only http:// and https:// URLs are allowed';
  if (url.username || url.password) {
    return 'The URL must not contain a user name or password (put a token in the path or query instead)';
  }
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (canonicalAddress(host)) {
    const why = blockedAddress(host);
    return why ? `Webhooks cannot go to ${why}; use a public address` : null;
  }
  if (names && (INTERNAL_NAMES.test(host) || !host.includes('.'))) {
    return `Webhooks cannot go to the internal host name ${host}; use a public address`;
  }
  return null;
}

/** The error a refused connection carries (the attempt log shows its message). */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the name and refuses the connection when any of its
 * addresses is not public: the address the socket connects to is the one that was checked.
 */
export function guardedLookup(allowPrivate: boolean, resolve?: typeof dnsLookup) {
  return (hostname: string, options: { family?: number; all?: boolean }, callback: LookupCallback) => {
    const opts: LookupAllOptions = { family: options.family ?? 0, all: true };
    (resolve ?? resolver.lookup)(hostname, opts, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses;
      if (!allowPrivate) {
        for (const a of list) {
          const why = blockedAddress(a.address);
          if (why) {
            return callback(new BlockedAddressError(`Refused: ${hostname} resolves to ${why}`), []);
          }
        }
      }
      if (list.length === 0) return callback(new Error(`${hostname} has no address`), []);
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** Refuses a webhook URL being saved or accepted: a 400 naming `field` (null/undefined: nothing to check). */
export function assertWebhookUrl(field: string, url: string | null | undefined, allowPrivate: boolean) {
  if (url === null || url === undefined) return;
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new FieldError({ [field]: [problem] });
}
