import { createEvent, deadLetterTopic, DELIVERY_CONSUMERS, deviceIdFor, topicIdFor, type HeraldEvent } from '@herald/events';
import { topicEnds, type HeraldKafka } from '@herald/kafka';
import type { ApiHarness } from './api-harness.ts';
import { apnsToken } from './test-tokens.ts';
import { waitFor } from './wait-for.ts';

export interface SeedDevice {
  token: string;
  platform: 'ios' | 'android';
}

/** `count` devices per platform with tokens `android-<i>` and `apnsToken('ios-<i>')` (`seedToken`): the usual campaign audience of the delivery tests. */
export function devicesPerPlatform(count: number): SeedDevice[] {
  return (['ios', 'android'] as const).flatMap((platform) => Array.from({ length: count }, (_, i) => ({ token: seedToken(platform, i), platform })));
}

/** The token `devicesPerPlatform` gives a platform's device `i`: APNs tokens are hex, so the iOS ones are `apnsToken('ios-<i>')`. */
export function seedToken(platform: 'ios' | 'android', i: number): string {
  return platform === 'ios' ? apnsToken(`ios-${i}`) : `android-${i}`;
}

/**
 * Subscribes `devices` to topic `topic` of a project, registered straight
 * through Kafka as the benchmark does (the API path is not under test where
 * this is used), and waits until the devices read model counts them all
 * (its counters, which the projector writes before the documents: a test that
 * reads the devices' documents right after waits for waitForProjectionCaughtUp).
 */
export async function seedTopicAudience(
  harness: ApiHarness,
  project: { id: string; api_key: string },
  devices: readonly SeedDevice[],
  topic = 'crowd',
): Promise<void> {
  const topicId = topicIdFor(project.id, topic);
  const context = { project_id: project.id };
  const events: HeraldEvent[] = [createEvent('TopicCreated', { topic_id: topicId, name: topic }, context)];
  for (const { token, platform } of devices) {
    events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform, topic_ids: [topicId] }, context));
  }
  for (let i = 0; i < events.length; i += 1000) await harness.env.producer.publish(events.slice(i, i + 1000));
  await waitFor('all devices projected', async () => {
    const response = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (response.body?.pagination as { count: number } | undefined)?.count === devices.length;
  }, 120_000);
}

/**
 * Records in the dead-letter topics of the delivery groups, per group (a
 * topic not created yet counts 0): fault tests expect every group at 0.
 */
export async function deliveryDeadLetters(kafka: HeraldKafka, groups: ReadonlyArray<keyof typeof DELIVERY_CONSUMERS> = ['fanout', 'fanoutPartitions', 'apns', 'fcm', 'webpush', 'hms', 'apnsExpress', 'fcmExpress', 'webpushExpress', 'hmsExpress']): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of groups) {
    const consumer = DELIVERY_CONSUMERS[name];
    let count = 0;
    for (const topic of consumer.topics) {
      const ends = await topicEnds(kafka, deadLetterTopic(topic, consumer.group)).catch(() => []);
      count += ends.reduce((sum, end) => sum + end.high - end.low, 0);
    }
    counts[consumer.group] = count;
  }
  return counts;
}
