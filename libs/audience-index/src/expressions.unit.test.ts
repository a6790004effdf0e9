import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, topicIdFor, type AudienceCondition, type HeraldEvent } from '@herald/events';
import { matchesAudience, type Audience } from '@herald/audience';
import { randomCondition, shrinkCondition, type ConditionVocabulary } from '@herald/audience/random-condition';
import type { ConsumedEvent } from '@herald/kafka';
import { seededRandom } from '@herald/testing/seeded-random';
import { AudienceIndex } from './audience-index.ts';
import { estimateAudience, readPage } from './read-page.ts';

/**
 * The index's reads of target expressions against the pure predicate, over
 * a real SQLite index in a temp dir: thousands of random expressions over
 * random devices, read page by page, must select exactly the devices
 * `matchesAudience` names; a failure is shrunk to its simplest expression
 * and printed with its seed (CONDITION_TEST_SEED replays it). The MongoDB
 * twin is held to the same in services/delivery's audience-index.int.test.ts.
 */
const seed = Number(process.env.CONDITION_TEST_SEED ?? Date.now() % 100_000);
const random = seededRandom(seed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const project = 'p1';
const vocabulary: ConditionVocabulary = {
  topicIds: ['news', 'deals', 'sport', 'gone'].map((name) => topicIdFor(project, name)),
  deviceIds: Array.from({ length: 6 }, (_, n) => deviceIdFor(project, `tok-${n * 7}`)),
  tokens: ['tok-3', 'tok-11', 'tok-40', 'no-such-token'],
  externalIds: ['u0', 'u1', 'u2'],
  keys: ['country', 'plan', 'opted_out'],
  values: ['US', 'FR', 'pro', 'yes'],
  platforms: ['ios', 'android'],
  locales: ['fr', 'fr-CA', 'en', 'en-US'],
  zones: ['Europe/Paris', 'America/New_York'],
};
let dir: string;
let index: AudienceIndex;
let offset = 0;
const record = (event: HeraldEvent): ConsumedEvent => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset: offset++ });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'herald-expressions-'));
  index = AudienceIndex.open(dir);
  const events: HeraldEvent[] = [];
  for (let n = 0; n < 160; n += 1) {
    const token = `tok-${n}`;
    const projectId = n % 9 === 0 ? 'p2' : project;
    const metadata = Object.fromEntries(vocabulary.keys.filter(() => random() < 0.5).map((key) => [key, pick(vocabulary.values)]));
    events.push(
      createEvent(
        'DeviceRegistered',
        {
          device_id: deviceIdFor(projectId, token),
          token,
          platform: pick(['ios', 'android'] as const),
          metadata,
          topic_ids: vocabulary.topicIds.filter(() => random() < 0.35),
          ...(random() < 0.5 ? { external_id: pick(vocabulary.externalIds) } : {}),
          ...(random() < 0.6 ? { timezone: pick(vocabulary.zones) } : {}),
          ...(random() < 0.7 ? { locale: pick(['fr', 'fr-CA', 'fr-Latn-CA', 'en', 'en-US', 'de']) } : {}),
        },
        { project_id: projectId },
      ),
    );
    if (random() < 0.2) events.push(createEvent('MetadataUpdated', { device_id: deviceIdFor(projectId, token), set: {}, unset: [], locale: pick(['fr', 'en-US']) }, { project_id: projectId }));
    if (random() < 0.1) events.push(createEvent('DeviceDeactivated', { device_id: deviceIdFor(projectId, token), provider: 'apns', reason: 'Unregistered' }, { project_id: projectId }));
  }
  index.applyDevices(0, events.map(record), offset);
});
afterAll(async () => {
  await index.close();
  rmSync(dir, { recursive: true, force: true });
});

const none: Audience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };

function byIndex(audience: Audience, limit: number): string[] {
  const found: string[] = [];
  let after: number | undefined;
  for (;;) {
    const page = readPage(index, { partition: 0, projectId: project, audience, after, limit });
    found.push(...page.rows.map((row) => row.device_id));
    if (page.exhausted) return found;
    after = page.after;
  }
}

describe('target expressions in the audience index', () => {
  it('select exactly the devices the pure predicate names, page by page (seed in the output)', () => {
    const devices = [...index.devices(0)];
    process.stdout.write(`expressions property test: seed ${seed}, ${devices.length} devices\n`);
    for (let round = 0; round < 2_000; round += 1) {
      const audienceOf = (condition: AudienceCondition): Audience => ({ ...none, ...(random() < 0.2 ? { topic_ids: [vocabulary.topicIds[0]!] } : {}), expressions: [condition] });
      const limit = 1 + Math.floor(random() * 40);
      const disagrees = (condition: AudienceCondition) => {
        const audience = audienceOf(condition);
        const expected = devices.filter((device) => matchesAudience(device, project, audience)).map((device) => device._id);
        const found = byIndex(audience, limit);
        return found.length !== new Set(found).size || JSON.stringify([...found].sort()) !== JSON.stringify(expected.sort());
      };
      const condition = randomCondition(random, vocabulary);
      if (disagrees(condition)) expect.fail(`seed ${seed}: the index and the predicate disagree on ${JSON.stringify(shrinkCondition(condition, disagrees))}`);
      // The estimate counts key members or every device: never below the audience.
      const audience = { ...none, expressions: [condition] };
      expect(estimateAudience(index, { partition: 0, projectId: project, audience })).toBeGreaterThanOrEqual(byIndex(audience, 1_000).length);
    }
    // Thousands of cases: seconds when the machine is busy.
  }, 120_000);
});
