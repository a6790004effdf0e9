import { EventSourceParserStream } from 'eventsource-parser/stream';
import { api } from './client.ts';

export interface StreamEvent {
  type: string;
  data: { notification_id?: string; device_id?: string; [key: string]: unknown };
}

const RETRY_MS = 3_000;

/**
 * Follows GET /api/v1/events (Server-Sent Events) through the typed client:
 * EventSource cannot send the API key, so the answer is read as a stream and
 * parsed by eventsource-parser. Reconnects with the last id received
 * (Last-Event-ID), so nothing is missed, until `signal` aborts.
 */
export function followEvents(types: readonly string[], onEvent: (event: StreamEvent) => void, signal: AbortSignal, onState?: (live: boolean) => void): void {
  let lastId: string | undefined;
  const run = async () => {
    while (!signal.aborted) {
      try {
        const { response } = await api.GET('/api/v1/events', {
          params: { query: { types: types.join(',') }, header: lastId === undefined ? {} : { 'last-event-id': lastId } },
          parseAs: 'stream',
          signal,
        });
        if (!response.ok || response.body === null) throw new Error(`event stream answered ${response.status}`);
        onState?.(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.id !== undefined) lastId = value.id;
          try {
            onEvent({ type: value.event ?? 'message', data: (JSON.parse(value.data) as { data: StreamEvent['data'] }).data });
          } catch {
            // not an event of ours: ignore it
          }
        }
      } catch {
        // disconnected, refused (429 past the stream limits) or aborted: wait, then resume from the last id
      }
      onState?.(false);
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
}
