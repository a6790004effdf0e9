import { createEvent, deviceIdFor, topicIdFor } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import { tokenFor } from './register.ts';

export const SMALL_TOPIC = 'bench-small';
export const SMALL_DEVICES = 10;

/** Registers 10 devices (indexes `from`…`from + 9`, half iOS) in a second topic, beside the campaign's. */
export async function registerSmallTopic(producer: EventProducer, projectId: string, from: number): Promise<void> {
  const context = { project_id: projectId };
  const topicId = topicIdFor(projectId, SMALL_TOPIC);
  await producer.publish([createEvent('TopicCreated', { topic_id: topicId, name: SMALL_TOPIC }, context)]);
  const events = Array.from({ length: SMALL_DEVICES }, (_, offset) => {
    const platform = offset % 2 === 0 ? ('ios' as const) : ('android' as const);
    const token = tokenFor(from + offset, platform);
    return createEvent('DeviceRegistered', { device_id: deviceIdFor(projectId, token), token, platform, topic_ids: [topicId] }, context);
  });
  await producer.publish(events);
}

/**
 * A 10-device notification sent while the campaign runs: resolves with the
 * milliseconds from the request to the last of its 10 devices delivered (null
 * when they were not all delivered within `timeoutMs`). `delivered` is fed
 * every delivery outside the campaign.
 */
export function createSmallSend(options: { baseUrl: string; apiKey: string; from: number; timeoutMs: number }) {
  const seen = new Set<number>();
  let t0 = 0;
  let finish: ((ms: number | null) => void) | undefined;
  return {
    delivered(index: number) {
      if (index < options.from || index >= options.from + SMALL_DEVICES || t0 === 0) return;
      seen.add(index);
      if (seen.size === SMALL_DEVICES) finish?.(performance.now() - t0);
    },
    /** Delivered-after ms (null: not all within the timeout), and when the fan-out had queued it (`dispatched_at` − `created_at`). */
    async send(): Promise<{ ms: number | null; queuedMs: number | undefined }> {
      const done = new Promise<number | null>((resolve) => (finish = resolve));
      t0 = performance.now();
      const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
      const post = () =>
        fetch(`${options.baseUrl}/api/v1/notifications`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ notification: { title: 'Small', body: 'A small send during the campaign', targets: [SMALL_TOPIC] } }),
        });
      // As a client does: a 503 (Kafka electing new leaders after a broker failure) is tried again after its
      // Retry-After; the latency counts from the first try.
      let response = await post();
      while (response.status === 503 && performance.now() - t0 < options.timeoutMs) {
        await response.text();
        const retryAfterS = Number(response.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, 1000 * (Number.isFinite(retryAfterS) && retryAfterS > 0 ? retryAfterS : 1)));
        response = await post();
      }
      if (response.status !== 201) throw new Error(`small send: POST answered ${response.status}: ${await response.text()}`);
      const { data } = (await response.json()) as { data: { id: string } };
      const timer = setTimeout(() => finish?.(null), options.timeoutMs);
      const ms = await done;
      clearTimeout(timer);
      // Where the time went: the fan-out (audience read, batches queued) or the senders. The
      // notifications projection may still be behind the campaign's reports: wait for it a little.
      const deadline = performance.now() + 30_000;
      for (;;) {
        // A 404 is a read model further behind than the API's wait for a just-sent id: look again.
        const followed = await fetch(`${options.baseUrl}/api/v1/notifications/${data.id}`, { headers }).then(
          (answer) => answer.json() as Promise<{ data?: { created_at: string; dispatched_at?: string | null } }>,
        );
        const dispatchedAt = followed.data?.dispatched_at;
        if (followed.data !== undefined && typeof dispatchedAt === 'string') return { ms, queuedMs: Date.parse(dispatchedAt) - Date.parse(followed.data.created_at) };
        if (performance.now() > deadline) return { ms, queuedMs: undefined };
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
}
