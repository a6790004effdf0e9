import { DELIVERY_CONSUMERS, TOPICS } from '@herald/events';
import type { HeraldKafka } from '@herald/kafka';
import { readModelVersion } from '@herald/mongo';

type Admin = ReturnType<HeraldKafka['client']['admin']>;

/** Kafka positions that show where a campaign is: batches queued by fan-out, batches done by senders, projection lag. */
export interface Positions {
  /** DeliveryBatch records written (fan-out progress). */
  batchesQueued: number;
  /** DeliveryBatch records committed by the sender groups. */
  batchesDone: number;
  /** notification-events records not yet applied by the notifications / delivery-ledger projections. */
  notificationsLag: number;
  ledgerLag: number;
}

/** Reads positions through one admin connection for the whole campaign. */
export class PositionReader {
  readonly #kafka: HeraldKafka;
  readonly #admin: Admin;

  constructor(kafka: HeraldKafka) {
    this.#kafka = kafka;
    this.#admin = kafka.client.admin();
  }

  async connect(): Promise<void> {
    await this.#admin.connect();
  }

  async disconnect(): Promise<void> {
    await this.#admin.disconnect();
  }

  async #ends(logicalTopic: string): Promise<Map<number, number>> {
    const offsets = await this.#admin.fetchTopicOffsets(this.#kafka.topic(logicalTopic));
    return new Map(offsets.map((item) => [item.partition, Number(item.high)]));
  }

  async #committed(logicalGroup: string, logicalTopic: string): Promise<Map<number, number>> {
    const [topic] = await this.#admin.fetchOffsets({ groupId: this.#kafka.group(logicalGroup), topics: [this.#kafka.topic(logicalTopic)] });
    return new Map((topic?.partitions ?? []).map((item) => [item.partition, Math.max(0, Number(item.offset))]));
  }

  /** Records of `logicalTopic` the group has not committed yet. */
  async lag(logicalGroup: string, logicalTopic: string): Promise<number> {
    const [ends, committed] = await Promise.all([this.#ends(logicalTopic), this.#committed(logicalGroup, logicalTopic)]);
    let lag = 0;
    for (const [partition, end] of ends) lag += Math.max(0, end - (committed.get(partition) ?? 0));
    return lag;
  }

  /** Records in every dead-letter topic (`*.dlq.*`) of the run's prefix. */
  async deadLetters(prefix: string): Promise<{ total: number; byTopic: Record<string, number> }> {
    const topics = (await this.#admin.listTopics()).filter((topic) => topic.startsWith(prefix) && topic.includes('.dlq.'));
    const byTopic: Record<string, number> = {};
    let total = 0;
    for (const topic of topics) {
      const offsets = await this.#admin.fetchTopicOffsets(topic);
      const count = offsets.reduce((sum, item) => sum + Math.max(0, Number(item.high) - Number(item.low)), 0);
      byTopic[topic] = count;
      total += count;
    }
    return { total, byTopic };
  }

  async read(): Promise<Positions> {
    const sum = (map: Map<number, number>) => [...map.values()].reduce((total, value) => total + value, 0);
    const [apnsEnds, fcmEnds, apnsDone, fcmDone, notificationsLag, ledgerLag] = await Promise.all([
      this.#ends(TOPICS.deliveriesApns),
      this.#ends(TOPICS.deliveriesFcm),
      this.#committed(DELIVERY_CONSUMERS.apns.group, TOPICS.deliveriesApns),
      this.#committed(DELIVERY_CONSUMERS.fcm.group, TOPICS.deliveriesFcm),
      this.lag(readModelVersion('notifications', 1).group, TOPICS.notificationEvents),
      this.lag(readModelVersion('delivery_ledger', 1).group, TOPICS.notificationEvents),
    ]);
    return { batchesQueued: sum(apnsEnds) + sum(fcmEnds), batchesDone: sum(apnsDone) + sum(fcmDone), notificationsLag, ledgerLag };
  }
}
