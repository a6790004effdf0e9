import type { HeraldKafka } from './create-kafka.ts';
import { retryKafkaSetup } from './ensure-topics.ts';
import type { PartitionEnd } from './offsets.ts';

/**
 * The cluster questions Herald's tools ask (ends of a topic, a group's
 * commits, whether a group has joined, clean-up), over one admin
 * connection, so kafkajs' admin client stays inside libs/kafka. Topic and
 * group names here are the broker's (prefixed) names unless a method says
 * logical.
 */
export interface LogAdmin {
  /** Answers when the cluster does; throws when it does not. */
  ping(): Promise<void>;
  /** The cluster's id: a new one means a new log (its data was wiped). */
  clusterId(): Promise<string>;
  /** Partition ends of a topic (broker name). */
  ends(topic: string): Promise<PartitionEnd[]>;
  /** Per partition of a topic (broker name): the offset of its first record stamped at or after `timestampMs`, or its end when none is. */
  offsetsAt(topic: string, timestampMs: number): Promise<Map<number, number>>;
  /** Last committed offset per partition of `topic` for `group` (broker names); -1 where nothing is committed. */
  committed(group: string, topic: string): Promise<Map<number, number>>;
  topics(): Promise<string[]>;
  groups(): Promise<string[]>;
  /** Whether every group is Stable with at least one member (its consumers have joined). */
  groupsJoined(groups: readonly string[]): Promise<boolean>;
  /** Members of a Stable group (0 while it rebalances or is empty): how many instances share its partitions now. */
  stableMembers(group: string): Promise<number>;
  deleteTopics(topics: readonly string[]): Promise<void>;
  deleteGroups(groups: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export async function openLogAdmin(kafka: HeraldKafka): Promise<LogAdmin> {
  const admin = kafka.client.admin();
  await admin.connect();
  return {
    async ping() {
      await admin.describeCluster();
    },
    async clusterId() {
      return (await admin.describeCluster()).clusterId;
    },
    async ends(topic) {
      // A topic created a moment ago may have no leader yet ("not the leader for that topic-partition").
      const offsets = await retryKafkaSetup(() => admin.fetchTopicOffsets(topic));
      return offsets.map((item) => ({ partition: item.partition, low: Number(item.low), high: Number(item.high) }));
    },
    async offsetsAt(topic, timestampMs) {
      const offsets = await retryKafkaSetup(() => admin.fetchTopicOffsetsByTimestamp(topic, timestampMs));
      return new Map(offsets.map((item) => [item.partition, Number(item.offset)]));
    },
    async committed(group, topic) {
      const [found] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      return new Map((found?.partitions ?? []).map((item) => [item.partition, Number(item.offset)]));
    },
    async topics() {
      return admin.listTopics();
    },
    async groups() {
      return (await admin.listGroups()).groups.map((group) => group.groupId);
    },
    async groupsJoined(groups) {
      const described = await admin.describeGroups([...groups]);
      return described.groups.length === groups.length && described.groups.every((group) => group.state === 'Stable' && group.members.length > 0);
    },
    async stableMembers(group) {
      const [described] = (await admin.describeGroups([group])).groups;
      return described?.state === 'Stable' ? described.members.length : 0;
    },
    async deleteTopics(topics) {
      if (topics.length > 0) await admin.deleteTopics({ topics: [...topics] });
    },
    async deleteGroups(groups) {
      if (groups.length > 0) await admin.deleteGroups([...groups]);
    },
    async close() {
      await admin.disconnect();
    },
  };
}

/** Runs `work` with an admin connection that is closed afterwards, whatever happens. */
export async function withLogAdmin<T>(kafka: HeraldKafka, work: (admin: LogAdmin) => Promise<T>): Promise<T> {
  const admin = await openLogAdmin(kafka);
  try {
    return await work(admin);
  } finally {
    await admin.close().catch(() => undefined);
  }
}
