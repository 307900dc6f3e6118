import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { FieldError } from '../../platform/errors';

/**
 * SSRF guard for webhook URLs (a key's or the account's default URL, a message's `callbackUrl`).
 * A customer must not make Wren's servers call its own network: loopback, private (RFC 1918,
 * fc00::/7), link-local (169.254.169.254, the cloud metadata service), CGNAT, multicast and the
 * other special-purpose ranges are refused. Checked twice: when a URL is saved or accepted (the
 * literal host), and when a delivery connects (every address the name resolves to, by the lookup
 * the socket itself uses, so a DNS answer that changes in between cannot slip through).
 */

/** Why an address may not receive webhooks, or null when it is a public unicast address. */
export function blockedAddress(address: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address); // IPv4-mapped IPv6 (::ffff:10.0.0.1) becomes its IPv4 address
  } catch {
    return `${address} is not an IP address`;
  }
  const range = addr.range();
  return range === 'unicast' ? null : `${addr.toString()} is a ${describe(range)} address`;
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
  if (ipaddr.isValid(host)) {
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
export function guardedLookup(allowPrivate: boolean, resolve = dnsLookup) {
  return (hostname: string, options: { family?: number; all?: boolean }, callback: LookupCallback) => {
    const opts: LookupAllOptions = { family: options.family ?? 0, all: true };
    resolve(hostname, opts, (err, addresses) => {
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
