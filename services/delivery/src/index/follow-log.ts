import { TOPICS } from '@herald/events';
import { behind, openLogReader, withLogAdmin, type HeraldKafka, type LogReader, type PartitionEnd } from '@herald/kafka';
import { announceWait, type Logger } from '@herald/log';
import type { AudienceIndex } from '@herald/audience-index';
import type { DeliveryControls } from '../control/delivery-controls.ts';
import { ProgressWaiters } from './progress-waiters.ts';

export interface FollowedLog {
  /** Resolves once topic-events and delivery-control have been read up to where they ended when following began. */
  ready: Promise<void>;
  /** Resolves once every topic-events partition is applied up to these ends (a send's recorded position). */
  waitForTopics: (ends: readonly PartitionEnd[]) => Promise<void>;
  close(): Promise<void>;
}

/**
 * What every delivery process reads whole: topic-events into the index's
 * topic table (from its checkpoint; the fan-out resolves topic names with
 * it) and herald.delivery-control into `controls` (from the start of its
 * retention: cancels of notifications in flight).
 */
export async function followLog(deps: { kafka: HeraldKafka; index: AudienceIndex; controls: DeliveryControls; logger: Logger }): Promise<FollowedLog> {
  const { kafka, index, controls } = deps;
  const topicWaiters = new ProgressWaiters((partition) => index.topicNext(partition));
  const controlNext = new Map<number, number>();
  const controlWaiters = new ProgressWaiters((partition) => controlNext.get(partition) ?? 0);
  const [topicEnds, controlEnds] = await withLogAdmin(kafka, async (admin) => [await admin.ends(kafka.topic(TOPICS.topicEvents)), await admin.ends(kafka.topic(TOPICS.deliveryControl))]);
  const from = { [TOPICS.topicEvents]: Object.fromEntries(topicEnds.map((end) => [end.partition, index.topicNext(end.partition)])) };
  /** Moves a partition's position on, never back: records and transaction markers both move it (caught-up.ts). */
  const moveTopics = (partition: number, next: number) => {
    if (next <= index.topicNext(partition)) return;
    index.applyTopics(partition, [], next);
    topicWaiters.moved(partition);
  };
  const moveControls = (partition: number, next: number) => {
    if (next <= (controlNext.get(partition) ?? 0)) return;
    controlNext.set(partition, next);
    controlWaiters.moved(partition);
  };
  const reader: LogReader = await openLogReader({
    kafka,
    topics: [TOPICS.topicEvents, TOPICS.deliveryControl],
    from,
    purpose: 'delivery',
    onRecord: async ({ topic, partition, offset, event }) => {
      if (topic === TOPICS.topicEvents) {
        index.applyTopics(partition, event === undefined ? [] : [{ event, topic, partition, offset }], offset + 1);
        topicWaiters.moved(partition);
        return;
      }
      if (event?.type === 'DeliveryControl') controls.apply(event);
      else if (event?.type === 'ProjectThrottled') controls.throttle(event);
      moveControls(partition, offset + 1);
    },
    // A fetch's last offset counts the transaction markers after its last record (and batches of markers alone).
    onProgress: (topic, partition, next) => (topic === TOPICS.topicEvents ? moveTopics(partition, next) : moveControls(partition, next)),
  });
  for (const end of controlEnds) controlNext.set(end.partition, reader.start[TOPICS.deliveryControl]?.[end.partition] ?? end.low);
  const waitForTopics = async (ends: readonly PartitionEnd[]) => {
    await Promise.all(ends.map((end) => topicWaiters.waitForEnd(end)));
  };
  const ready = announceWait(
    deps.logger,
    'topic-events and delivery-control read to where they ended at start-up',
    (async () => {
      await reader.ready;
      await waitForTopics(topicEnds);
      await Promise.all(controlEnds.map((end) => controlWaiters.waitForEnd(end)));
      deps.logger.info({ topic_partitions: topicEnds.length }, 'topic table and delivery controls caught up');
    })(),
    () => ({
      topic_events_behind: behind(topicEnds, (partition) => index.topicNext(partition)),
      delivery_control_behind: behind(controlEnds, (partition) => controlNext.get(partition)),
    }),
  );
  return { ready, waitForTopics, close: () => reader.close() };
}
