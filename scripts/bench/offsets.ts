import { DELIVERY_CONSUMERS, TOPICS } from '@herald/events';
import { openLogAdmin, type HeraldKafka, type LogAdmin } from '@herald/kafka';
import { readModelVersion } from '@herald/mongo';

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
  #admin: LogAdmin | undefined;

  constructor(kafka: HeraldKafka) {
    this.#kafka = kafka;
  }

  async connect(): Promise<void> {
    this.#admin = await openLogAdmin(this.#kafka);
  }

  async disconnect(): Promise<void> {
    await this.#admin?.close();
  }

  get #connected(): LogAdmin {
    if (this.#admin === undefined) throw new Error('PositionReader: connect() first');
    return this.#admin;
  }

  async #ends(logicalTopic: string): Promise<Map<number, number>> {
    const ends = await this.#connected.ends(this.#kafka.topic(logicalTopic));
    return new Map(ends.map((item) => [item.partition, item.high]));
  }

  async #committed(logicalGroup: string, logicalTopic: string): Promise<Map<number, number>> {
    const committed = await this.#connected.committed(this.#kafka.group(logicalGroup), this.#kafka.topic(logicalTopic));
    return new Map([...committed].map(([partition, offset]) => [partition, Math.max(0, offset)]));
  }

  /** End offsets (next offset to be written) of every partition of `logicalTopic`. */
  ends(logicalTopic: string): Promise<Map<number, number>> {
    return this.#ends(logicalTopic);
  }

  /** Records below `ends` (by partition) the group has not committed yet: 0 once it has taken everything written before `ends` were read. */
  async lagBelow(logicalGroup: string, logicalTopic: string, ends: ReadonlyMap<number, number>): Promise<number> {
    const committed = await this.#committed(logicalGroup, logicalTopic);
    let lag = 0;
    for (const [partition, end] of ends) lag += Math.max(0, end - (committed.get(partition) ?? 0));
    return lag;
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
    const topics = (await this.#connected.topics()).filter((topic) => topic.startsWith(prefix) && topic.includes('.dlq.'));
    const byTopic: Record<string, number> = {};
    let total = 0;
    for (const topic of topics) {
      const ends = await this.#connected.ends(topic);
      const count = ends.reduce((sum, item) => sum + Math.max(0, item.high - item.low), 0);
      byTopic[topic] = count;
      total += count;
    }
    return { total, byTopic };
  }

  /**
   * Records each stage of the send path has not committed yet: the
   * coordinator (notification-events), the fan-out tasks, the four sender
   * lanes, and the notifications and ledger projections. Where a backlog
   * sits says which stage bounds the rate.
   */
  async stageLags(): Promise<Record<'coordinator' | 'tasks' | 'apns' | 'fcm' | 'apnsExpress' | 'fcmExpress' | 'notifications' | 'ledger', number>> {
    const lagOf = (consumer: { group: string }, topic: string) => this.lag(consumer.group, topic);
    const [coordinator, tasks, apns, fcm, apnsExpress, fcmExpress, notifications, ledger] = await Promise.all([
      lagOf(DELIVERY_CONSUMERS.fanout, TOPICS.notificationEvents),
      lagOf(DELIVERY_CONSUMERS.fanoutPartitions, TOPICS.fanoutTasks),
      lagOf(DELIVERY_CONSUMERS.apns, TOPICS.deliveriesApns),
      lagOf(DELIVERY_CONSUMERS.fcm, TOPICS.deliveriesFcm),
      lagOf(DELIVERY_CONSUMERS.apnsExpress, TOPICS.deliveriesApnsExpress),
      lagOf(DELIVERY_CONSUMERS.fcmExpress, TOPICS.deliveriesFcmExpress),
      this.lag(readModelVersion('notifications', 1).group, TOPICS.notificationEvents),
      this.lag(readModelVersion('delivery_ledger', 1).group, TOPICS.notificationEvents),
    ]);
    return { coordinator, tasks, apns, fcm, apnsExpress, fcmExpress, notifications, ledger };
  }

  async read(): Promise<Positions> {
    const sum = (map: Map<number, number>) => [...map.values()].reduce((total, value) => total + value, 0);
    // Both lanes of every provider: a campaign that fits in the fan-out's first step goes by the express lane.
    const lanes = (['apns', 'fcm', 'webpush', 'hms', 'apnsExpress', 'fcmExpress', 'webpushExpress', 'hmsExpress'] as const).map((name) => DELIVERY_CONSUMERS[name]);
    const [ends, done, notificationsLag, ledgerLag] = await Promise.all([
      Promise.all(lanes.map((lane) => this.#ends(lane.topics[0]))),
      Promise.all(lanes.map((lane) => this.#committed(lane.group, lane.topics[0]))),
      this.lag(readModelVersion('notifications', 1).group, TOPICS.notificationEvents),
      this.lag(readModelVersion('delivery_ledger', 1).group, TOPICS.notificationEvents),
    ]);
    const total = (maps: ReadonlyArray<Map<number, number>>) => maps.reduce((all, map) => all + sum(map), 0);
    return { batchesQueued: total(ends), batchesDone: total(done), notificationsLag, ledgerLag };
  }
}
