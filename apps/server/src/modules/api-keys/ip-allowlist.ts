import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses an allowlist entry (an address or a CIDR, IPv4 or IPv6); null when it is neither. An IPv4
 * address must be four decimal numbers without leading zeros: the older forms inet_aton accepts
 * read `192.168.010.001` as octal (192.168.8.1) and `1.2.3` as 1.2.0.3, not what anyone typed.
 */
export function parseEntry(entry: string): Range | null {
  const address = entry.split('/')[0] ?? '';
  if (!address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address)) return null;
  try {
    if (entry.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(entry);
      return [normal(addr), addr.kind() === 'ipv6' && normal(addr).kind() === 'ipv4' ? bits - 96 : bits];
    }
    const addr = normal(ipaddr.parse(entry));
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** Canonical text of an entry (`10.0.0.1/32` → `10.0.0.1`, `2001:DB8::/32` → `2001:db8::/32`). */
export function canonicalEntry(entry: string): string | null {
  const r = parseEntry(entry);
  if (!r) return null;
  const full = r[0].kind() === 'ipv4' ? 32 : 128;
  return r[1] === full ? r[0].toString() : `${r[0].toString()}/${r[1]}`;
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is the IPv4 address it carries. */
function normal(addr: ipaddr.IPv4 | ipaddr.IPv6) {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/** A matcher for a parsed allowlist; an empty list allows every address. */
export function compileAllowlist(entries: readonly string[]): (ip: string) => boolean {
  const ranges = entries.map(parseEntry).filter((r): r is Range => r !== null);
  if (entries.length === 0) return () => true;
  return (ip) => {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = normal(ipaddr.parse(ip));
    } catch {
      return false;
    }
    return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  };
}
