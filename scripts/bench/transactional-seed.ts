// `--stored S`: S notifications already in the store when the sends start,
// each a one-device send with its dispatch and its delivery report (so the
// notifications read model and the ledger both hold S of them). Written
// through Kafka as reads-seed.ts does, so 100,000 take a minute, not the
// hour sending them would: dated two days back, so the fan-out expires them
// without sending anything (NotificationExpired; the read model keeps them).
import { createEvent, deviceIdFor, DELIVERY_CONSUMERS, newId, TOPICS, type HeraldEvent } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import type { Deadline } from './deadline.ts';
import type { PositionReader } from './offsets.ts';
import { waitProjected } from './reads-seed.ts';

const CHUNK = 1_000;
const IN_FLIGHT = 4;
/** Older than DELIVERY_MAX_AGE_MS (one day by default): the fan-out queues nothing for them. */
const AGE_MS = 2 * 24 * 60 * 60 * 1000;

/** One stored notification (pure but for ids): requested two days ago to one token, dispatched, delivered. */
export function storedNotificationEvents(projectId: string, n: number, now: number): HeraldEvent[] {
  const notification_id = newId();
  const token = `stored-${n.toString(16).padStart(12, '0')}`;
  const device_id = deviceIdFor(projectId, token);
  const context = { project_id: projectId, now: new Date(now - AGE_MS) };
  return [
    createEvent('NotificationRequested', { notification_id, title: 'Stored', body: `stored notification ${n}`, targets: [{ token }] }, context),
    createEvent('NotificationDispatched', { notification_id, targeted: { apns: 1, fcm: 0 }, batches: { apns: 1, fcm: 0 } }, context),
    createEvent('DeliveryReported', { notification_id, batch_id: `${notification_id}:apns:0`, provider: 'apns', results: [{ device_id, outcome: 'delivered', attempts: 1 }] }, context),
  ];
}

/** Publishes the stored notifications, then waits until the fan-out has taken (expired) them all and every projection caught up. */
export async function seedStored(
  producer: EventProducer,
  positions: PositionReader,
  options: { projectId: string; stored: number; deadline: Deadline; progress: (text: string) => void },
): Promise<{ publishS: number; projectedS: number }> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < options.stored) {
      options.deadline.check('storing notifications', `${next}/${options.stored} published`);
      const from = next;
      next = Math.min(options.stored, next + CHUNK);
      const events: HeraldEvent[] = [];
      for (let n = from; n < next; n += 1) events.push(...storedNotificationEvents(options.projectId, n, Date.now()));
      await producer.publish(events);
      options.progress(`${next}/${options.stored} stored notifications published`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const publishS = (performance.now() - started) / 1000;
  // The fan-out has taken every stored request once its committed offsets pass the ends read now. (Not "lag 0":
  // its own NotificationExpired records come after them, and a consumer that skips the records it does not
  // handle leaves its committed offset short of the end.)
  const published = await positions.ends(TOPICS.notificationEvents);
  for (;;) {
    const lag = await positions.lagBelow(DELIVERY_CONSUMERS.fanout.group, TOPICS.notificationEvents, published);
    if (lag === 0) break;
    options.progress(`fan-out: ${lag} stored notification records left to take`);
    options.deadline.check('expiring stored notifications', `${lag} records left`);
    await new Promise((done) => setTimeout(done, 1_000));
  }
  await waitProjected(positions, options.deadline, options.progress);
  return { publishS, projectedS: (performance.now() - started) / 1000 - publishS };
}
