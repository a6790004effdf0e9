import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { Collection } from '@herald/mongo';
import { createLogger } from '@herald/log';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { applyProjection } from './apply-projection.ts';
import { projectOutcomesId, projectOutcomesProjection, RECENT_BATCHES, type ProjectOutcomesDocument } from './project-outcomes.ts';

/**
 * A read-first projection (project outcomes) on the real store: its first
 * chunk creates the document, later chunks read and replace it, a chunk
 * applied again changes nothing, and the document stays bounded however
 * many one-device batches a partition reports.
 */
let env: TestEnv;
let outcomes: Collection<ProjectOutcomesDocument>;
const logger = createLogger({ name: 'apply-projection-test', level: 'silent' });
const project_id = 'read-first';
let offset = 0;

const reports = (count: number, from: number, at = '2026-05-01T10:00:00Z'): ConsumedEvent[] =>
  Array.from({ length: count }, (_, n) => ({
    event: createEvent('DeliveryReported', { notification_id: `n${from + n}`, batch_id: `b${from + n}`, provider: 'apns' as const, results: [{ device_id: 'd', outcome: 'delivered' as const }] }, { project_id, now: new Date(at) }),
    topic: TOPICS.notificationEvents,
    partition: 0,
    offset: offset++,
  }));

beforeAll(async () => {
  env = await createTestEnv('apply-projection');
  outcomes = env.mongo.db.collection<ProjectOutcomesDocument>('project_outcomes_v1');
});
afterAll(async () => {
  await env?.close();
});

describe('applyProjection, read first', () => {
  const id = projectOutcomesId(project_id, 0);
  const delivered = async () => (await outcomes.findOne({ _id: id }))?.hours.reduce((sum, hour) => sum + hour.delivered, 0);

  it('creates the document with its first chunk, then reads and replaces it', async () => {
    const first = reports(3, 0);
    expect(await applyProjection(projectOutcomesProjection, outcomes, first, logger)).toEqual({ inserted: 0, replaced: 1 });
    expect(await delivered()).toBe(3);
    await applyProjection(projectOutcomesProjection, outcomes, reports(2, 3), logger);
    expect(await delivered()).toBe(5);
    // The same chunk again (a crash before the commit): nothing changes.
    expect(await applyProjection(projectOutcomesProjection, outcomes, first, logger)).toEqual({ inserted: 0, replaced: 0 });
    expect(await delivered()).toBe(5);
  });

  it('counts a repeated report once and keeps the document bounded', async () => {
    // A repeat of b4 at a later offset (its sender's commit was lost), among many one-device batches.
    const repeat = { ...reports(1, 4)[0]! };
    await applyProjection(projectOutcomesProjection, outcomes, [repeat, ...reports(RECENT_BATCHES + 100, 5)], logger);
    const doc = await outcomes.findOne({ _id: id });
    expect(await delivered()).toBe(5 + RECENT_BATCHES + 100);
    expect(doc?.recent_batches).toHaveLength(RECENT_BATCHES);
    expect(doc?.hours.every((hour) => hour.batches === undefined)).toBe(true);
  });
});
