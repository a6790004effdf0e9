import type { Static } from 'typebox';
import type { ApiConfig } from './config.ts';

/** The HTTP-facing settings the app takes from the configuration (tests pass their own). */
export interface HttpOptions {
  trustProxy: TrustProxy;
  /** undefined: no rate limits (HERALD_RATE_LIMITS=off). */
  rateLimits?: { windowMs: number; devicePerAddress: number; devicePerProject: number; newDevicesPerProject: number; bearerPerKey: number; unauthenticatedPerAddress: number } | undefined;
  requestDeadlineMs: number;
  /** Open connections one client address (IPv6: its /64) may hold; 0: no bound (behind a proxy that is the only peer). */
  connectionsPerAddress: number;
  publish: { timeoutMs: number; maxInFlight: number };
}

export const DEFAULT_HTTP_OPTIONS: HttpOptions = {
  trustProxy: false,
  rateLimits: undefined,
  requestDeadlineMs: 4_500,
  connectionsPerAddress: 0,
  publish: { timeoutMs: 3_000, maxInFlight: 2_000 },
};

export function httpOptions(config: Static<typeof ApiConfig>): HttpOptions {
  return {
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    rateLimits:
      config.HERALD_RATE_LIMITS === 'off'
        ? undefined
        : {
            windowMs: config.RATE_LIMIT_WINDOW_MS,
            devicePerAddress: config.RATE_LIMIT_DEVICE_PER_ADDRESS,
            devicePerProject: config.RATE_LIMIT_DEVICE_PER_PROJECT,
            newDevicesPerProject: config.RATE_LIMIT_NEW_DEVICES_PER_PROJECT,
            bearerPerKey: config.RATE_LIMIT_BEARER_PER_KEY,
            unauthenticatedPerAddress: config.RATE_LIMIT_UNAUTHENTICATED_PER_ADDRESS,
          },
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    // A bound like the rate limits: off with them (benchmarks drive the API from one address).
    connectionsPerAddress: config.HERALD_RATE_LIMITS === 'off' ? 0 : config.CONNECTIONS_PER_ADDRESS,
    publish: { timeoutMs: config.PUBLISH_TIMEOUT_MS, maxInFlight: config.PUBLISH_MAX_IN_FLIGHT },
  };
}

type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** TRUST_PROXY → fastify's trustProxy: a boolean, a hop count (trust that many proxies), or the proxies' addresses. */
export function trustProxySetting(value: string): TrustProxy {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((part) => part.trim());
}
