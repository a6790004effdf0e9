import { AdminStore } from '@herald/admin';
import { createEvent, deviceIdFor, newId, topicIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import { readModelVersion, type Store, type ReadModelName } from '@herald/mongo';
import type { Deadline } from './deadline.ts';
import type { PositionReader } from './offsets.ts';
import { projectSizes } from './reads-args.ts';

/** What the read benchmark stored, per project: enough to build every request it sends. */
export interface SeededProject {
  id: string;
  apiKey: string;
  devices: number;
  notifications: number;
  /** Notification ids (all of them; the by-id and receipts requests pick among them). */
  notificationIds: string[];
  /** Of those, the ones with delivery receipts, and how many devices each reached. */
  withReceipts: string[];
}

export const TOPICS_PER_PROJECT = 5;
const CHUNK = 5_000;
const IN_FLIGHT = 4;
const BATCH = 500;

/** A token of the device's platform's form: 64 hex digits for iOS (APNs), the FCM alphabet for Android. */
export function benchToken(project: number, device: number): string {
  if (benchPlatform(device) === 'ios') return `${project.toString(16).padStart(8, '0')}${device.toString(16).padStart(56, '0')}`;
  return `bench-${project}-${device.toString(16).padStart(8, '0')}`;
}

export function benchTopicId(projectId: string, topic: number): string {
  return topicIdFor(projectId, `bench-topic-${topic}`);
}

export function benchPlatform(device: number): 'ios' | 'android' {
  return device % 2 === 0 ? 'ios' : 'android';
}

/** Whether device `n` is unregistered after its registration (seeded through Kafka only). */
export function isUnregistered(device: number): boolean {
  return device % 20 === 19;
}

/** Device `n` of a project: registered with one of the project's topics. */
export function deviceEvent(projectId: string, project: number, device: number): HeraldEvent {
  const token = benchToken(project, device);
  return createEvent('DeviceRegistered', { device_id: deviceIdFor(projectId, token), token, platform: benchPlatform(device), topic_ids: [benchTopicId(projectId, device % TOPICS_PER_PROJECT)] }, { project_id: projectId });
}

export async function createProjects(db: Store, count: number, devices: number, notifications: number): Promise<SeededProject[]> {
  const admin = new AdminStore(db);
  const deviceSizes = projectSizes(devices, count);
  const notificationSizes = projectSizes(notifications, count);
  const projects: SeededProject[] = [];
  for (let index = 0; index < count; index += 1) {
    const { project, apiKey } = await admin.createProject(`bench-reads-${index}`);
    projects.push({ id: project._id, apiKey, devices: deviceSizes[index]!, notifications: notificationSizes[index]!, notificationIds: [], withReceipts: [] });
  }
  return projects;
}

/** Publishes events produced lazily, CHUNK per publish, IN_FLIGHT publishes at once; `done` reports progress. */
async function publishAll(producer: EventProducer, chunks: Iterator<HeraldEvent[]>, deadline: Deadline, what: string, done: (n: number) => void): Promise<number> {
  let published = 0;
  const worker = async () => {
    for (let next = chunks.next(); next.done !== true; next = chunks.next()) {
      deadline.check(what, `${published} published`);
      await producer.publish(next.value);
      published += next.value.length;
      done(published);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return published;
}

/**
 * Chunks of about CHUNK events taking groups from every project in turn, so
 * that the store holds the projects mixed as a live installation would. A
 * group (a notification's request and what follows it) is never split:
 * chunks are published several at once, and only a chunk keeps its order.
 */
function* interleaved(sources: Array<Iterator<HeraldEvent[]>>): Generator<HeraldEvent[]> {
  const live = [...sources];
  const perSource = Math.max(1, Math.ceil(CHUNK / live.length));
  while (live.length > 0) {
    const chunk: HeraldEvent[] = [];
    for (const source of [...live]) {
      for (let taken = 0; taken < perSource; ) {
        const next = source.next();
        if (next.done === true) {
          live.splice(live.indexOf(source), 1);
          break;
        }
        chunk.push(...next.value);
        taken += next.value.length;
      }
    }
    if (chunk.length > 0) yield chunk;
  }
}

/**
 * Through Kafka, as register.ts does for the campaign: every project's
 * topics, devices (but the last `viaApi` of the large project, which the API
 * registers later), notifications (one in ten then cancelled) and, for a few
 * of the large project's notifications, a dispatch and delivery reports of
 * BATCH devices each (the receipts the receipts endpoint pages through).
 */
export async function seedThroughKafka(
  producer: EventProducer,
  projects: SeededProject[],
  options: { viaApi: number; receiptNotifications: number; receiptDevices: number; deadline: Deadline; progress: (text: string) => void },
): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  const sources = projects.map(function* (project, index): Generator<HeraldEvent[]> {
    const context = { project_id: project.id };
    for (let topic = 0; topic < TOPICS_PER_PROJECT; topic += 1) yield [createEvent('TopicCreated', { topic_id: benchTopicId(project.id, topic), name: `bench-topic-${topic}` }, context)];
    const viaKafka = index === 0 ? project.devices - options.viaApi : project.devices;
    for (let device = 0; device < viaKafka; device += 1) {
      // One device in twenty is then unregistered: the lists by status have both.
      yield isUnregistered(device) ? [deviceEvent(project.id, index, device), createEvent('DeviceUnregistered', { device_id: deviceIdFor(project.id, benchToken(index, device)) }, context)] : [deviceEvent(project.id, index, device)];
    }
    for (let n = 0; n < project.notifications; n += 1) {
      const notification_id = newId();
      project.notificationIds.push(notification_id);
      const group: HeraldEvent[] = [createEvent('NotificationRequested', { notification_id, title: 'Bench', body: `notification ${n}`, targets: [`bench-topic-${n % TOPICS_PER_PROJECT}`] }, context)];
      if (n % 10 === 9) group.push(createEvent('NotificationCancelled', { notification_id }, context));
      else if (index === 0 && project.withReceipts.length < options.receiptNotifications && n % 10 === 0) {
        project.withReceipts.push(notification_id);
        group.push(...receiptEvents(project.id, notification_id, Math.min(options.receiptDevices, viaKafka)));
      }
      yield group;
    }
  });
  const events = await publishAll(producer, interleaved(sources), options.deadline, 'seeding through Kafka', (n) => options.progress(`${n} events published`));
  return { events, seconds: (performance.now() - started) / 1000 };
}

/** A notification sent to the large project's first `devices` devices, batch by batch, all delivered. */
function receiptEvents(projectId: string, notification_id: string, devices: number): HeraldEvent[] {
  const context = { project_id: projectId };
  const batches = Math.ceil(devices / BATCH);
  const events: HeraldEvent[] = [];
  events.push(createEvent('NotificationDispatched', { notification_id, targeted: { apns: devices, fcm: 0 }, batches: { apns: batches, fcm: 0 } }, context));
  for (let batch = 0; batch < batches; batch += 1) {
    const results = Array.from({ length: Math.min(BATCH, devices - batch * BATCH) }, (_, n) => ({ device_id: deviceIdFor(projectId, benchToken(0, batch * BATCH + n)), outcome: 'delivered' as const, attempts: 1 }));
    events.push(createEvent('DeliveryReported', { notification_id, batch_id: `${notification_id}:apns:${batch}`, provider: 'apns', results }, context));
  }
  return events;
}

const MODELS: Array<[ReadModelName, string]> = [
  ['devices', TOPICS.deviceEvents],
  ['topics', TOPICS.topicEvents],
  ['notifications', TOPICS.notificationEvents],
  ['delivery_ledger', TOPICS.notificationEvents],
];

/** Waits until every projection group has applied everything published (committed offsets at the ends). */
export async function waitProjected(positions: PositionReader, deadline: Deadline, progress: (text: string) => void): Promise<number> {
  const started = performance.now();
  for (;;) {
    const lags = await Promise.all(MODELS.map(([model, topic]) => positions.lag(readModelVersion(model, 1).group, topic)));
    const left = lags.reduce((sum, lag) => sum + lag, 0);
    progress(`projecting: ${MODELS.map(([model], index) => `${model} ${lags[index]}`).join(', ')} records left`);
    if (left === 0) return (performance.now() - started) / 1000;
    deadline.check('projecting', `${left} records left`);
    await new Promise((done) => setTimeout(done, 1_000));
  }
}
