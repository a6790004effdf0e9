import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HeraldEvent } from '@herald/events';
import type { LogPosition } from '@herald/kafka';

/** What an analytics stream carries: outcomes, opens, deactivations and status changes, and Live Activity pushes with their outcomes. */
export const STREAM_EVENT_TYPES = [
  'DeliveryReported',
  'NotificationOpened',
  'DeviceDeactivated',
  'DeviceUnregistered',
  'NotificationRequested',
  'NotificationDispatched',
  'NotificationCancelled',
  'NotificationExpired',
  'NotificationSteered',
  'AudienceEstimated',
  'VariantDecided',
  'LiveActivityRequested',
  'LiveActivityReported',
] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

const ID_PREFIX = 'v2.';

function mac(key: string, projectId: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`${projectId}\n${payload}`).digest();
}

/**
 * An SSE id: the next offset of every partition read so far, and a MAC of it
 * under the project's stream key, so an id is accepted only from the stream
 * of the project that was given it (opaque to clients: `v2.<base64url JSON>.<base64url MAC>`).
 */
export function encodeStreamId(key: string, projectId: string, position: LogPosition): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${ID_PREFIX}${payload}.${mac(key, projectId, payload).toString('base64url')}`;
}

/**
 * The position an id names, or undefined when it is not one this project's
 * stream gave (for these topics): unsigned, signed for another project, or
 * altered. Ids always name every partition read, so a resumed stream never
 * starts a partition earlier than its client had read.
 */
export function decodeStreamId(key: string, projectId: string, id: string, topics: readonly string[]): LogPosition | undefined {
  if (!id.startsWith(ID_PREFIX) || id.length > 4096) return undefined;
  const [payload, signature, ...rest] = id.slice(ID_PREFIX.length).split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, projectId, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const position: LogPosition = {};
  for (const topic of topics) {
    const partitions = (parsed as Record<string, unknown>)[topic];
    if (typeof partitions !== 'object' || partitions === null || Array.isArray(partitions) || Object.keys(partitions).length === 0) return undefined;
    position[topic] = {};
    for (const [partition, offset] of Object.entries(partitions as Record<string, unknown>)) {
      if (!/^\d{1,6}$/.test(partition) || !Number.isSafeInteger(offset) || (offset as number) < 0) return undefined;
      position[topic][Number(partition)] = offset as number;
    }
  }
  return position;
}

/** Whether a record belongs on this project's stream. */
export function streams(event: HeraldEvent | undefined, projectId: string, types: ReadonlySet<string>): event is HeraldEvent {
  return event !== undefined && event.project_id === projectId && types.has(event.type);
}

/** One SSE message: the event's id, its type as the SSE event name, the event envelope as data. */
export function sseFrame(id: string, event: HeraldEvent): string {
  const { id: eventId, type, version, occurred_at, project_id, correlation_id, data } = event;
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id: eventId, type, version, occurred_at, project_id, ...(correlation_id === undefined ? {} : { correlation_id }), data })}\n\n`;
}

/** The last message of a stream the server ends (shutdown, key revoked, time up): reconnect soon, with the last id. */
export function closingFrame(reason: string): string {
  return `: ${reason.replace(/[\r\n]/g, ' ')}\nretry: 1000\n\n`;
}
