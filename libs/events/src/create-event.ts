import { latestEntry, type EventData, type EventOf, type EventType } from './catalog.ts';
import { newId } from './identity.ts';

export interface EventContext {
  project_id: string;
  correlation_id?: string | undefined;
  /** For tests and replays; defaults to the current time. */
  now?: Date;
}

/** Builds the envelope for a new event of the latest version; the stream id comes from the data. */
export function createEvent<T extends EventType>(type: T, data: EventData<T>, context: EventContext): EventOf<T> {
  const entry = latestEntry(type);
  const streamId = (data as Record<string, unknown>)[entry.streamField];
  if (typeof streamId !== 'string' || streamId === '') {
    throw new TypeError(`${type}.data.${entry.streamField} must be a non-empty string`);
  }
  return {
    id: newId(),
    type,
    version: entry.version,
    occurred_at: (context.now ?? new Date()).toISOString(),
    project_id: context.project_id,
    stream_id: streamId,
    ...(context.correlation_id === undefined ? {} : { correlation_id: context.correlation_id }),
    data,
  } as unknown as EventOf<T>;
}
