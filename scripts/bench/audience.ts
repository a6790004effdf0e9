// `npm run bench:audience -- [--devices 100000] [--expressions 200] [--json]`:
// the delivery audience index under target expressions (issue 47), without
// Kafka or a store: an index of N devices over 4 partitions (20 topics,
// 10 metadata keys with skewed values, 3 platforms, 30 locales, 6 zones),
// written through the index's own applyDevices, then
// - count: random expressions of 1–8 leaves counted by reading the index
//   (every partition, pages of 10,000 as the fan-out reads them): p50/p99 ms;
// - fan-out CPU per targeted device: a single-topic campaign against an
//   expression (the same topic AND a metadata test AND NOT another topic),
//   read the same way; their ratio (the target: ≤ 1.5×);
// - the index's bytes per device (its SQLite file, WAL included).
// CPU time is the process's. Runs of more than 100,000 devices take minutes
// and gigabytes: ask before running them on a shared machine.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEvent, deviceIdFor, TOPICS, topicIdFor, type AudienceCondition, type HeraldEvent } from '@herald/events';
import type { Audience } from '@herald/audience';
import { randomCondition, type ConditionVocabulary } from '@herald/audience/random-condition';
import { AudienceIndex, readPage } from '@herald/audience-index';
import type { ConsumedEvent } from '@herald/kafka';
import { seededRandom } from '@herald/testing/seeded-random';
import { emitJson } from './runs.ts';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '100000' }, expressions: { type: 'string', default: '200' }, json: { type: 'boolean', default: false }, seed: { type: 'string', default: '47' } } });
const DEVICES = Number(values.devices);
const EXPRESSIONS = Number(values.expressions);
const PARTITIONS = 4;
const PAGE = 10_000;
const project = 'bench-audience';
const random = seededRandom(Number(values.seed));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** Skewed: the first values are far more common (a few countries, plans dominate). */
const skewed = <T>(items: readonly T[]): T => items[Math.min(items.length - 1, Math.floor(-Math.log(1 - random()) * 1.5))]!;

const TOPIC_NAMES = Array.from({ length: 20 }, (_, n) => `topic-${n}`);
const KEYS = Array.from({ length: 10 }, (_, n) => `key${n}`);
const VALUES = Array.from({ length: 12 }, (_, n) => `v${n}`);
const LOCALES = ['en', 'en-US', 'en-GB', 'fr', 'fr-CA', 'fr-BE', 'de', 'de-AT', 'es', 'es-MX', 'it', 'pt', 'pt-BR', 'nl', 'sv', 'da', 'fi', 'nb', 'pl', 'cs', 'ru', 'uk', 'tr', 'ar', 'he', 'ja', 'ko', 'zh-Hans', 'zh-Hant-TW', 'hi'];
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Europe/London', 'America/Los_Angeles', 'Australia/Sydney'];

function build(dir: string): AudienceIndex {
  const index = AudienceIndex.open(dir);
  const offsets = new Array<number>(PARTITIONS).fill(0);
  const chunks: ConsumedEvent[][] = Array.from({ length: PARTITIONS }, () => []);
  const flush = (partition: number) => {
    const chunk = chunks[partition]!;
    if (chunk.length === 0) return;
    index.applyDevices(partition, chunk, offsets[partition]!);
    chunks[partition] = [];
  };
  for (let n = 0; n < DEVICES; n += 1) {
    const token = n.toString(16).padStart(64, '0');
    const metadata = Object.fromEntries(KEYS.filter(() => random() < 0.6).map((key) => [key, skewed(VALUES)]));
    const event: HeraldEvent = createEvent(
      'DeviceRegistered',
      {
        device_id: deviceIdFor(project, token),
        token,
        platform: pick(['ios', 'android', 'web'] as const),
        metadata,
        topic_ids: TOPIC_NAMES.filter(() => random() < 0.15).map((name) => topicIdFor(project, name)),
        ...(random() < 0.8 ? { locale: skewed(LOCALES) } : {}),
        ...(random() < 0.7 ? { timezone: pick(ZONES) } : {}),
      },
      { project_id: project },
    );
    const partition = n % PARTITIONS;
    chunks[partition]!.push({ event, topic: TOPICS.deviceEvents, partition, offset: offsets[partition]! });
    offsets[partition]! += 1;
    if (chunks[partition]!.length >= 2_000) flush(partition);
  }
  for (let partition = 0; partition < PARTITIONS; partition += 1) flush(partition);
  return index;
}

/** Every device of the audience, read as the fan-out reads it; the devices found and the CPU µs it took. */
function readAll(index: AudienceIndex, audience: Audience): { devices: number; cpuUs: number; wallMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let devices = 0;
  for (let partition = 0; partition < PARTITIONS; partition += 1) {
    let after: number | undefined;
    for (;;) {
      const page = readPage(index, { partition, projectId: project, audience, after, limit: PAGE, scanLimit: PAGE * 10 });
      devices += page.rows.length;
      if (page.exhausted) break;
      after = page.after;
    }
  }
  const used = process.cpuUsage(cpu);
  return { devices, cpuUs: used.user + used.system, wallMs: performance.now() - started };
}

const none: Audience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const dir = mkdtempSync(join(tmpdir(), 'herald-bench-audience-'));
try {
  const builtAt = performance.now();
  const index = build(dir);
  const buildS = (performance.now() - builtAt) / 1000;
  const bytes = readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);

  const vocabulary: ConditionVocabulary = {
    topicIds: TOPIC_NAMES.map((name) => topicIdFor(project, name)),
    deviceIds: [deviceIdFor(project, '1'.padStart(64, '0'))],
    tokens: ['2'.padStart(64, '0')],
    externalIds: ['nobody'],
    keys: KEYS,
    values: VALUES.slice(0, 6),
    platforms: ['ios', 'android', 'web'],
    locales: ['en', 'fr', 'de-AT', 'pt-BR'],
    zones: ZONES,
  };
  const counts: number[] = [];
  for (let n = 0; n < EXPRESSIONS; n += 1) counts.push(readAll(index, { ...none, expressions: [randomCondition(random, vocabulary, 3)] }).wallMs);
  counts.sort((a, b) => a - b);

  const topic = topicIdFor(project, 'topic-0');
  const expression: AudienceCondition = { and: [{ topic_id: topic }, { metadata: { key0: { ne: 'v3' } } }, { not: { topic_id: topicIdFor(project, 'topic-1') } }] };
  // Warm both paths once, then alternate three times each and keep the medians.
  readAll(index, { ...none, topic_ids: [topic] });
  readAll(index, { ...none, expressions: [expression] });
  const plain: number[] = [];
  const combined: number[] = [];
  let plainDevices = 0;
  let combinedDevices = 0;
  for (let run = 0; run < 3; run += 1) {
    const a = readAll(index, { ...none, topic_ids: [topic] });
    const b = readAll(index, { ...none, expressions: [expression] });
    plainDevices = a.devices;
    combinedDevices = b.devices;
    plain.push(a.cpuUs / Math.max(1, a.devices));
    combined.push(b.cpuUs / Math.max(1, b.devices));
  }
  const median = (items: number[]) => [...items].sort((x, y) => x - y)[1]!;
  await index.close();

  const figures = {
    devices: DEVICES,
    partitions: PARTITIONS,
    build_s: round(buildS, 1),
    index_bytes_per_device: Math.round(bytes / DEVICES),
    expressions: EXPRESSIONS,
    count_ms_p50: round(percentile(counts, 50)),
    count_ms_p99: round(percentile(counts, 99)),
    single_topic: { devices: plainDevices, cpu_us_per_device: round(median(plain)) },
    expression: { devices: combinedDevices, cpu_us_per_device: round(median(combined)) },
    cpu_ratio: round(median(combined) / median(plain)),
  };
  if (values.json) emitJson('audience', figures);
  else process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
