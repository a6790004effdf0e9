import type { Provider } from '@herald/events';
import { deviceTokenProblem, TOKEN_PLATFORM_OF } from '@herald/push-payloads';
import type { DeviceTarget } from '../providers/push-message.ts';
import type { AttemptedResult } from './retry.ts';

/** The reason a device carries when its stored token is one its provider can never accept. */
export const MALFORMED_TOKEN = 'MalformedToken';

/**
 * Splits a batch's devices into those that can be sent and the final
 * results of those that cannot: a token registered before the token rule
 * (device-token.ts) that no provider accepts — some of which Node's HTTP/2
 * client refuses before a byte is sent, an error that looks like a
 * connection failure and would be retried for minutes. They end `invalid`
 * at once and their devices are deactivated, as APNs BadDeviceToken would.
 */
export function splitUnsendable(provider: Provider, devices: readonly DeviceTarget[]): { sendable: DeviceTarget[]; unsendable: AttemptedResult[] } {
  // A web device's token is its subscription's endpoint, checked at registration; the Web Push client refuses what it cannot call.
  if (provider === 'webpush') return { sendable: [...devices], unsendable: [] };
  const platform = TOKEN_PLATFORM_OF[provider];
  const sendable: DeviceTarget[] = [];
  const unsendable: AttemptedResult[] = [];
  for (const device of devices) {
    if (deviceTokenProblem(platform, device.token) === undefined) sendable.push(device);
    else unsendable.push({ device_id: device.device_id, outcome: 'token-invalid', reason: MALFORMED_TOKEN, attempts: 1 });
  }
  return { sendable, unsendable };
}

/** The batch's results in its devices' order, from the results of its two parts. */
export function inBatchOrder(devices: readonly DeviceTarget[], ...parts: ReadonlyArray<readonly AttemptedResult[]>): AttemptedResult[] {
  const byDevice = new Map(parts.flat().map((result) => [result.device_id, result]));
  return devices.map((device) => byDevice.get(device.device_id)!);
}
