import { createEvent, type ProviderV1 } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import type { Logger } from '@herald/log';

/** A push-back is published again for a project only when it reaches this much further than the last one published. */
export const THROTTLE_REPUBLISH_MS = 1_000;

/**
 * Publishes a provider's push-back on a project as ProjectThrottled on
 * herald.delivery-control (every delivery process follows it: the fan-out
 * holds the project's campaign steps until `until`). Many batches of a
 * project meet the same 429 at once: one record per project per second of
 * `until` is enough. Fire and forget: a lost record only means the fan-out
 * is not slowed, the batches themselves still wait out the Retry-After.
 */
export function throttlePublisher(producer: Pick<EventProducer, 'publish'>, provider: ProviderV1, logger: Logger): (projectId: string, until: number, reason: string) => void {
  const published = new Map<string, number>();
  return (projectId, until, reason) => {
    if (until < (published.get(projectId) ?? 0) + THROTTLE_REPUBLISH_MS) return;
    if (published.size > 10_000) published.clear();
    published.set(projectId, until);
    const event = createEvent('ProjectThrottled', { provider, until: new Date(until).toISOString(), reason }, { project_id: projectId });
    producer.publish([event]).catch((error: unknown) => logger.warn({ err: error, project_id: projectId }, 'could not publish a provider push-back; the fan-out is not slowed by it'));
  };
}
