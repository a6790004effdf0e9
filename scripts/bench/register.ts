import cliProgress from 'cli-progress';
import { createEvent, deviceIdFor, topicIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import { DeviceQueries, ReadModelRegistry, type Store } from '@herald/mongo';
import type { Deadline } from './deadline.ts';
import type { PositionReader } from './offsets.ts';
import { huaweiTokenFor } from './shares.ts';

export const TOPIC_NAME = 'bench-all';
const CHUNK = 5_000;
const IN_FLIGHT = 4;

/**
 * Token of device `index`. Both encode the index, so a delivery's token tells
 * which device it was (a bit set counts distinct deliveries without keeping them).
 * iOS: 64 hex digits, like a real APNs token; Android: 152 characters, about an FCM token's length.
 */
export function tokenFor(index: number, platform: 'ios' | 'android'): string {
  return platform === 'ios' ? index.toString(16).padStart(64, '0') : `bench:${index.toString(10).padStart(146, '0')}`;
}

export function indexOfToken(token: string): number {
  return token.startsWith('bench:') ? Number.parseInt(token.slice(6), 10) : Number.parseInt(token, 16);
}

export function platformOf(index: number, iosCount: number): 'ios' | 'android' {
  return index < iosCount ? 'ios' : 'android';
}

function progressBar(label: string, total: number) {
  const bar = new cliProgress.SingleBar(
    {
      format: `  ${label.padEnd(10)} {bar} {value}/{total} | {rate}/s | {duration_formatted}`,
      etaBuffer: 20,
      noTTYOutput: true,
      notTTYSchedule: 5_000,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(total, 0, { rate: 0 });
  return {
    update: (value: number) => bar.update(value, { rate: Math.round(value / Math.max((performance.now() - started) / 1000, 0.001)) }),
    stop: () => bar.stop(),
  };
}

/** A browser subscription of the fake push service, for device `index` (its endpoint's id starts with `w<index>-`: fakes-process.ts). */
export interface BenchSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The web devices of a run: indexes from `from` on, each with its subscription, made with the project's VAPID key `keyId`. */
export interface BenchWebDevices {
  from: number;
  subscriptions: readonly BenchSubscription[];
  keyId: string;
}

/** The device index a fake push service's subscription id names (`w<index>-…`), or -1. */
export function indexOfSubscriptionId(id: string): number {
  const match = /^w(\d+)-/.exec(id);
  return match === null ? -1 : Number(match[1]);
}

/** Publishes TopicCreated and one DeviceRegistered per device, in chunks with a few publishes in flight; resolves with the seconds it took. */
export async function publishDevices(
  producer: EventProducer,
  options: {
    projectId: string;
    devices: number;
    iosCount: number;
    web?: BenchWebDevices | undefined;
    /** Devices from this index on are huawei (Push Kit tokens: shares.ts); after the web ones. */
    huaweiFrom?: number | undefined;
    /** Device `index`'s locale and metadata (DeviceRegistered v2), for content runs (content-plan.ts). */
    profile?: ((index: number) => { locale?: string; metadata?: Record<string, string> }) | undefined;
    deadline: Deadline;
    progress: (text: string) => void;
  },
): Promise<{ seconds: number; topicId: string }> {
  const { projectId, devices, iosCount, deadline } = options;
  const context = { project_id: projectId };
  const topicId = topicIdFor(projectId, TOPIC_NAME);
  const started = performance.now();
  await producer.publish([createEvent('TopicCreated', { topic_id: topicId, name: TOPIC_NAME }, context)]);
  const bar = progressBar('published', devices);
  let next = 0;
  let done = 0;
  const chunkAt = (from: number): HeraldEvent[] => {
    const events: HeraldEvent[] = [];
    for (let index = from; index < Math.min(from + CHUNK, devices); index += 1) {
      const web = options.web;
      const profile = options.profile?.(index) ?? {};
      if (options.huaweiFrom !== undefined && index >= options.huaweiFrom) {
        const token = huaweiTokenFor(index);
        events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(projectId, token), token, platform: 'huawei', topic_ids: [topicId], ...profile }, context));
        continue;
      }
      if (web !== undefined && index >= web.from) {
        const { endpoint, p256dh, auth } = web.subscriptions[index - web.from]!;
        events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(projectId, endpoint), token: endpoint, platform: 'web', topic_ids: [topicId], subscription: { endpoint, p256dh, auth, key_id: web.keyId }, ...profile }, context));
        continue;
      }
      const platform = platformOf(index, iosCount);
      const token = tokenFor(index, platform);
      events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(projectId, token), token, platform, topic_ids: [topicId], ...profile }, context));
    }
    return events;
  };
  const worker = async () => {
    while (next < devices) {
      deadline.check('publishing devices', `${done}/${devices} published`);
      const events = chunkAt(next);
      next += events.length;
      await producer.publish(events);
      done += events.length;
      bar.update(done);
      options.progress(`${done}/${devices} published`);
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    bar.stop();
  }
  return { seconds: (performance.now() - started) / 1000, topicId };
}

/**
 * Waits until the devices read model holds `devices` documents. Progress
 * comes from the projection group's committed offsets (cheap); the document
 * count itself is a scan on FerretDB/SQLite that would compete with the
 * projector, so it is taken once the group has caught up (and repeated until
 * it shows every device).
 */
export async function waitForProjection(
  db: Store,
  positions: PositionReader,
  options: { devices: number; deadline: Deadline; progress: (text: string) => void },
): Promise<{ seconds: number; caughtUpS: number; countS: number }> {
  const registry = new ReadModelRegistry(db, { cacheMs: 0 });
  const { group } = await registry.active('devices');
  const started = performance.now();
  const bar = progressBar('projected', options.devices);
  try {
    // The topic holds exactly the run's DeviceRegistered events, so lag counts the devices still to project.
    for (;;) {
      const lag = await positions.lag(group, TOPICS.deviceEvents);
      bar.update(options.devices - lag);
      options.progress(`${options.devices - lag}/${options.devices} projected (committed offsets), ${((performance.now() - started) / 1000).toFixed(0)} s after publishing`);
      if (lag === 0) break;
      options.deadline.check('projecting devices', `${options.devices - lag}/${options.devices} projected (by committed offsets)`);
      await new Promise((done) => setTimeout(done, 250));
    }
    const caughtUpS = (performance.now() - started) / 1000;
    for (;;) {
      const before = performance.now();
      const count = await new DeviceQueries(registry).countEveryDevice();
      const countS = (performance.now() - before) / 1000;
      options.progress(`group caught up; counted ${count}`);
      if (count >= options.devices) return { seconds: (performance.now() - started) / 1000, caughtUpS, countS };
      options.deadline.check('counting projected devices', `${count}/${options.devices} documents`);
      await new Promise((done) => setTimeout(done, 250));
    }
  } finally {
    bar.stop();
  }
}
