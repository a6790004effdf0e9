import type { HeraldEvent } from '@herald/events';
import type { LogPosition } from '@herald/kafka';

/** What an analytics stream carries: outcomes, opens, deactivations and status changes. */
export const STREAM_EVENT_TYPES = [
  'DeliveryReported',
  'NotificationOpened',
  'DeviceDeactivated',
  'DeviceUnregistered',
  'NotificationRequested',
  'NotificationDispatched',
  'NotificationCancelled',
  'NotificationExpired',
] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

const ID_PREFIX = 'v1.';

/** An SSE id: the next offset of every partition read so far, opaque to clients (base64url JSON). */
export function encodeStreamId(position: LogPosition): string {
  return ID_PREFIX + Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position an id names, or undefined when it is not one this stream gave (for these topics). */
export function decodeStreamId(id: string, topics: readonly string[]): LogPosition | undefined {
  if (!id.startsWith(ID_PREFIX) || id.length > 4096) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(id.slice(ID_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const position: LogPosition = {};
  for (const [topic, partitions] of Object.entries(parsed)) {
    if (!topics.includes(topic) || typeof partitions !== 'object' || partitions === null || Array.isArray(partitions)) return undefined;
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
