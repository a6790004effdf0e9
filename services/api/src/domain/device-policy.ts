/**
 * What an installation lets devices store, from the API's configuration
 * (docs/reference/device-endpoints.md; every figure is documented there).
 */
export interface DevicePolicy {
  /** Devices a project may hold unless it has its own quota (herald projects device-quota). */
  projectDeviceQuota: number;
  /** The share (percent) of a project's quota that devices registered without its API key may fill. */
  anonymousDevicePercent: number;
  /** Bytes of token, identifiers, metadata, topics, external_id and timezone one device may hold (as JSON). */
  maxDeviceBytes: number;
  /** How often a project's devices are counted again for its quota, per API process. */
  quotaRecountMs: number;
  /** Local mode (WEBPUSH_LOCAL=on): web subscription endpoints may be http and loopback (the local fake push service). */
  webPushLocal?: boolean;
  /** WEBPUSH_ENDPOINT_HOSTS: the push services' host names (and their subdomains) an endpoint may name; undefined or ['*']: any public host. */
  webPushHosts?: readonly string[] | undefined;
}

export const DEFAULT_DEVICE_POLICY: DevicePolicy = { projectDeviceQuota: 1_000_000, anonymousDevicePercent: 90, maxDeviceBytes: 16_384, quotaRecountMs: 60_000 };
