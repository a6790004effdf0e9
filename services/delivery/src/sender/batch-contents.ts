import type { DeliveryBatchV2 } from '@herald/events';
import type { PushMessage } from '@herald/push-payloads';
import type { AttemptedResult } from './retry.ts';
import type { DeviceTarget } from '../providers/push-message.ts';

/** The reason of a device whose content could not be rendered (its batch line carries the error). */
export const TEMPLATE_ERROR = 'TemplateError';

type BatchDevice = DeliveryBatchV2['data']['devices'][number];

/**
 * A batch's devices whose content failed to render, reported `failed`
 * (TemplateError) without a send, and the others (pure). A batch without
 * per-device content has none.
 */
export function splitTemplateErrors(batch: DeliveryBatchV2): { renderable: BatchDevice[]; failed: AttemptedResult[] } {
  if (batch.data.contents === undefined) return { renderable: batch.data.devices, failed: [] };
  const renderable: BatchDevice[] = [];
  const failed: AttemptedResult[] = [];
  for (const device of batch.data.devices) {
    if (device.error === undefined) renderable.push(device);
    // Never sent: no attempt is counted.
    else failed.push({ device_id: device.device_id, outcome: 'rejected', reason: TEMPLATE_ERROR, attempts: 0 });
  }
  return { renderable, failed };
}

/** The message a group of a batch's devices gets: the batch's, with content `index` laid over it (pure). */
export function messageWithContent(message: PushMessage, batch: DeliveryBatchV2, index: number | undefined): PushMessage {
  const content = index === undefined ? undefined : batch.data.contents?.[index];
  return content === undefined ? message : { ...message, ...content };
}

/**
 * Sends a batch with per-device content: its devices grouped by content,
 * each group's payload built once (`build`; undefined: it cannot be, and
 * the group fails with `unbuildable`), the groups sent side by side.
 */
export function sendByContent<Payload>(
  message: PushMessage,
  batch: DeliveryBatchV2,
  build: (message: PushMessage) => Payload | undefined,
  send: (devices: readonly DeviceTarget[], payload: Payload) => Promise<AttemptedResult[]>,
  unbuildable: string,
): (devices: readonly DeviceTarget[]) => Promise<AttemptedResult[]> {
  const payloads = new Map<number | undefined, Payload | undefined>();
  const payloadOf = (index: number | undefined) => {
    if (!payloads.has(index)) payloads.set(index, build(messageWithContent(message, batch, index)));
    return payloads.get(index);
  };
  return async (devices) => {
    const groups = new Map<number | undefined, DeviceTarget[]>();
    for (const device of devices) {
      const index = (device as BatchDevice).content;
      const group = groups.get(index);
      if (group === undefined) groups.set(index, [device]);
      else group.push(device);
    }
    const results = await Promise.all(
      [...groups].map(([index, group]) => {
        const payload = payloadOf(index);
        return payload === undefined ? Promise.resolve(group.map((device): AttemptedResult => ({ device_id: device.device_id, outcome: 'rejected', reason: unbuildable, attempts: 1 }))) : send(group, payload);
      }),
    );
    return results.flat();
  };
}

/**
 * sendByContent for a provider whose one call carries a payload per device
 * (FCM's `sendEach`, APNs' request per device): the devices whose content's
 * payload is built go in one send, each with its content's payload (built
 * once per content), the others fail with `unbuildable`. A call per content
 * would be a provider call per device for a send personalised per device:
 * each FCM call costs about 15 µs of CPU of its own (firebase-admin copies
 * its input and leases the HTTP/2 session), and every call its own retry
 * loop, send slot and timing, as much as the rest of a push.
 */
export function sendEachByContent<Payload>(
  message: PushMessage,
  batch: DeliveryBatchV2,
  build: (message: PushMessage) => Payload | undefined,
  send: (devices: readonly DeviceTarget[], payloadOf: (device: DeviceTarget) => Payload) => Promise<AttemptedResult[]>,
  unbuildable: string,
): (devices: readonly DeviceTarget[]) => Promise<AttemptedResult[]> {
  const payloads = new Map<number | undefined, Payload | undefined>();
  const payloadOf = (device: DeviceTarget) => {
    const index = (device as BatchDevice).content;
    if (!payloads.has(index)) payloads.set(index, build(messageWithContent(message, batch, index)));
    return payloads.get(index);
  };
  return async (devices) => {
    const sendable: DeviceTarget[] = [];
    const failed: AttemptedResult[] = [];
    for (const device of devices) {
      if (payloadOf(device) === undefined) failed.push({ device_id: device.device_id, outcome: 'rejected', reason: unbuildable, attempts: 1 });
      else sendable.push(device);
    }
    const sent = sendable.length === 0 ? [] : await send(sendable, (device) => payloadOf(device)!);
    return [...sent, ...failed];
  };
}
