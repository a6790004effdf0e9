import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may connect to an address. Only ordinary public unicast
 * is allowed; ipaddr.js names every special range (RFC 1918 private, 169.254/16
 * and fe80::/10 link-local — where cloud metadata services answer —, loopback,
 * fc00::/7 unique-local, multicast, carrier-grade NAT, reserved and
 * documentation ranges, 6to4/Teredo/NAT64 forms that embed an IPv4 address).
 * An IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
 * Loopback is allowed only when `allowLoopback` (local mode).
 */
export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

export function classifyAddress(address: string, allowLoopback: boolean): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'not an IP address' };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return { allowed: true };
  if (range === 'loopback' && allowLoopback) return { allowed: true };
  return { allowed: false, range };
}

/** Whether a URL host names an IP address directly (no DNS lookup then). */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
