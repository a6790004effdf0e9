import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may connect to an address. Only global unicast is
 * allowed: ipaddr.js names every special range (RFC 1918 private, 169.254/16
 * and fe80::/10 link-local — where cloud metadata services answer —,
 * loopback, fc00::/7 unique-local, multicast, carrier-grade NAT, reserved and
 * documentation ranges, Teredo), and IPv6 outside 2000::/3 is not global
 * unicast either. An IPv6 form that embeds an IPv4 address is judged as that
 * IPv4 address: IPv4-compatible (::/96, `::7f00:1`), IPv4-mapped
 * (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96)
 * and 6to4 (2002::/16) — each reaches, or is translated to, the IPv4 host.
 * Loopback is allowed only when `allowLoopback` (local mode), and only as
 * itself or IPv4-mapped (the forms this host answers on).
 */
export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

export function classifyAddress(address: string, allowLoopback: boolean): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'not an IP address' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return classifyIPv4(parsed as ipaddr.IPv4, allowLoopback);
  const ipv6 = parsed as ipaddr.IPv6;
  const range = ipv6.range();
  if (range === 'loopback') return allowLoopback ? { allowed: true } : { allowed: false, range };
  if (range === 'unspecified') return { allowed: false, range };
  const embedded = embeddedIPv4(ipv6);
  if (embedded !== undefined) return classifyIPv4(embedded.ipv4, allowLoopback && embedded.form === 'ipv4Mapped');
  if (range !== 'unicast') return { allowed: false, range };
  // 2000::/3: the only IPv6 space allocated for global unicast.
  if ((ipv6.parts[0]! & 0xe000) !== 0x2000) return { allowed: false, range: 'not global unicast' };
  return { allowed: true };
}

function classifyIPv4(ipv4: ipaddr.IPv4, allowLoopback: boolean): AddressVerdict {
  const range = ipv4.range();
  if (range === 'unicast') return { allowed: true };
  if (range === 'loopback' && allowLoopback) return { allowed: true };
  return { allowed: false, range };
}

/** The IPv4 address an IPv6 address carries, for the forms that deliver to (or translate to) it. */
export function embeddedIPv4(ipv6: ipaddr.IPv6): { form: string; ipv4: ipaddr.IPv4 } | undefined {
  const p = ipv6.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 6)) return { form: 'ipv4Compatible', ipv4: fromWords(p[6]!, p[7]!) };
  if (zeros(0, 5) && p[5] === 0xffff) return { form: 'ipv4Mapped', ipv4: fromWords(p[6]!, p[7]!) };
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return { form: 'ipv4Translated', ipv4: fromWords(p[6]!, p[7]!) };
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return { form: 'nat64', ipv4: fromWords(p[6]!, p[7]!) };
  if (p[0] === 0x2002) return { form: '6to4', ipv4: fromWords(p[1]!, p[2]!) };
  return undefined;
}

/** Whether a URL host names an IP address directly (no DNS lookup then). */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
