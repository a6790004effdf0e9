import ipaddr from 'ipaddr.js';

/**
 * Does a route's schema require the bearer key (its OpenAPI security says
 * so)? A route that also lists the empty scheme (`[{}, {bearerAuth: []}]`)
 * takes the key as optional: it is device-facing.
 */
export function isBearerRoute(schema: unknown): boolean {
  const security = (schema as { security?: Array<Record<string, unknown>> } | undefined)?.security;
  return security !== undefined && security.length > 0 && security.every((scheme) => 'bearerAuth' in scheme);
}

/** Device-facing: an API route callable without a key (registration, metadata, opens). */
export function isDeviceRoute(url: string): boolean {
  return url.startsWith('/api/');
}

/** The project a device-facing request names, in its query or body; undefined when none (validation refuses it later). */
export function projectIdOf(request: { query?: unknown; body?: unknown }): string | undefined {
  for (const source of [request.query, request.body]) {
    const value = (source as { project_id?: unknown } | null | undefined)?.project_id;
    if (typeof value === 'string' && value.length > 0 && value.length <= 128) return `project:${value}`;
  }
  return undefined;
}

/**
 * Who a client address counts as: an IPv4 address as itself (also when it
 * arrives IPv4-mapped), an IPv6 address by its /64 — one subscriber's
 * allocation, so a host cannot take a fresh budget from each of its 2^64
 * addresses.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return `addr:${ip}`;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return `addr:${address.toString()}`;
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `addr:${parts.join(':')}::/64`;
}
