import type { FastifyRequest } from 'fastify';

/** Query parameters that identify a person or authenticate a caller: never written to logs. */
export const SECRET_QUERY_PARAMS = ['identifier', 'identifier_hash', 'token', 'previous_token', 'api_key', 'key'];

/** A URL as it may be logged: the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const name = decodeQueryName(pair.split('=')[0] ?? '');
      return SECRET_QUERY_PARAMS.includes(name) ? `${pair.split('=')[0] ?? ''}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

function decodeQueryName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The access log's view of a request: what fastify logs by default, with the URL redacted. */
export function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
