/**
 * Error statuses a route can answer whatever its own logic: the request line
 * and headers too large (431), not received before the deadline (408), the
 * deadline or a dependency down (503); API
 * routes also past a rate limit (429); routes with a body also a body that is
 * not JSON (400), too large (413), or of another media type (415).
 */
export function documentedStatuses(url: string, hasBody: boolean): number[] {
  const statuses = [408, 431, 503];
  if (url.startsWith('/api/')) statuses.push(429);
  if (hasBody) statuses.push(400, 413, 415);
  return statuses.sort((a, b) => a - b);
}
