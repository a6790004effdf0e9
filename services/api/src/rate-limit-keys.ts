import { createHash } from 'node:crypto';

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

/** API keys are counted by a hash: the limiter's memory never holds a usable key. */
export function apiKeyFingerprint(authorization: string | undefined): string {
  return `key:${createHash('sha256').update(authorization ?? '').digest('base64url')}`;
}
