import { ConfigError } from '@herald/errors';

/** Where a provider endpoint override points: an https origin. */
export interface Endpoint {
  origin: string;
  /** Without IPv6 brackets, as `tls.connect` wants it. */
  host: string;
  port: number;
}

/**
 * Reads `APNS_ENDPOINT` / `FCM_ENDPOINT`-style values: `https://host[:port]`,
 * nothing else. Only https: an override must not quietly drop TLS; trust a
 * fake's certificate with NODE_EXTRA_CA_CERTS (or `ca` in tests) instead.
 */
export function parseEndpoint(value: string, name: string): Endpoint {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError([`${name} must be a URL like https://127.0.0.1:8443`]);
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:') problems.push(`${name} must use https`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') problems.push(`${name} must be an origin, without path, query or fragment`);
  if (url.username !== '' || url.password !== '') problems.push(`${name} must not carry credentials`);
  if (problems.length > 0) throw new ConfigError(problems);
  return { origin: url.origin, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? 443 : Number(url.port) };
}
