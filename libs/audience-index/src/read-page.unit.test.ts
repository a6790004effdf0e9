import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, topicIdFor, type HeraldEvent, type ResolvedAudience } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { AudienceIndex } from './audience-index.ts';
import { readPage, type IndexReader } from './read-page.ts';

/** readPage over a real LMDB index in a temp dir (no Kafka): keys, paging, the predicate, the send's recorded end. */
let dir: string;
let index: AudienceIndex;
const project = 'p';
const topic = topicIdFor(project, 'news');
const none: ResolvedAudience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
const audience = (part: Partial<ResolvedAudience>): ResolvedAudience => ({ ...none, ...part });
let offset = 0;
const record = (event: HeraldEvent): ConsumedEvent => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset: offset++ });
const registered = (token: string, extra: Record<string, unknown> = {}) =>
  createEvent('DeviceRegistered', { device_id: deviceIdFor(project, token), token, platform: 'ios', topic_ids: [topic], ...extra }, { project_id: project });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'herald-read-page-'));
  index = AudienceIndex.open(dir);
  const events = [
    ...Array.from({ length: 10 }, (_, n) => registered(`t${n}`, n % 2 === 0 ? { metadata: { plan: 'pro' } } : {})),
    createEvent('DeviceDeactivated', { device_id: deviceIdFor(project, 't3'), provider: 'apns', reason: 'Unregistered' }, { project_id: project }),
    registered('late'),
  ];
  const records = events.map(record);
  index.applyDevices(0, records, offset);
});
afterAll(async () => {
  await index.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokensOf = (page: ReturnType<typeof readPage>) => page.rows.map((row) => row.token);

describe('readPage', () => {
  it('pages through a topic in log order, active devices only, each once', () => {
    const seen: string[] = [];
    let after: number | undefined;
    for (;;) {
      const page = readPage(index, { partition: 0, projectId: project, audience: audience({ topic_ids: [topic] }), after, limit: 3 });
      seen.push(...tokensOf(page));
      if (page.exhausted) break;
      after = page.after;
    }
    expect(seen).toEqual(['t0', 't1', 't2', 't4', 't5', 't6', 't7', 't8', 't9', 'late']);
  });

  it('leaves out devices created at or after the send’s recorded end, and stops there', () => {
    const lateOffset = offset - 1;
    const page = readPage(index, { partition: 0, projectId: project, audience: audience({ topic_ids: [topic], tokens: ['late'] }), after: undefined, limit: 100, registeredBefore: lateOffset });
    expect(tokensOf(page)).not.toContain('late');
    expect(page.exhausted).toBe(true);
    expect(tokensOf(readPage(index, { partition: 0, projectId: project, audience: audience({ tokens: ['late'] }), after: undefined, limit: 100, registeredBefore: lateOffset + 1 }))).toEqual(['late']);
  });

  it('unites targets without repeats: a metadata pair, a token, an id', () => {
    const page = readPage(index, { partition: 0, projectId: project, audience: audience({ metadata: [{ plan: 'pro' }], tokens: ['t1', 't2'], device_ids: [deviceIdFor(project, 't9')] }), after: undefined, limit: 100 });
    expect(tokensOf(page)).toEqual(['t0', 't1', 't2', 't4', 't6', 't8', 't9']);
  });

  it("carries each row's template values when asked (withValues), and only then", () => {
    const request = { partition: 0, projectId: project, audience: audience({ tokens: ['t0', 't1'] }), after: undefined, limit: 100 };
    expect(readPage(index, { ...request, withValues: true }).rows.map((row) => row.values)).toEqual([
      { metadata: { plan: 'pro' }, locale: undefined, timezone: undefined },
      { metadata: {}, locale: undefined, timezone: undefined },
    ]);
    expect(readPage(index, request).rows.map((row) => row.values)).toEqual([undefined, undefined]);
  });

  it('never reaches another project or a project’s devices through another project’s id', () => {
    expect(readPage(index, { partition: 0, projectId: 'q', audience: audience({ topic_ids: [topic], tokens: ['t1'] }), after: undefined, limit: 100 }).rows).toEqual([]);
  });

  it('closes the cursors of a page that stops early (an open one keeps its read transaction)', () => {
    const finished: string[] = [];
    function* watched(name: string, source: Generator<number>): Generator<number> {
      try {
        yield* source;
      } finally {
        finished.push(name);
      }
    }
    const reader: IndexReader = {
      ordinals: (key, after) => watched(String(key[1]), index.ordinals(key, after)),
      allOrdinals: (partition, after) => index.allOrdinals(partition, after),
      ordinalOf: (partition, id) => index.ordinalOf(partition, id),
      rowsAt: (partition, ordinals) => index.rowsAt(partition, ordinals),
      alias: (partition, projectId, token) => index.alias(partition, projectId, token),
      countUnder: (key) => index.countUnder(key),
      deviceCount: (partition) => index.deviceCount(partition),
    };
    const page = readPage(reader, { partition: 0, projectId: project, audience: audience({ topic_ids: [topic], metadata: [{ plan: 'pro' }] }), after: undefined, limit: 2 });
    expect(tokensOf(page)).toEqual(['t0', 't1']);
    expect(page.exhausted).toBe(false);
    expect(finished.sort()).toEqual(['m', 't']);
  });
});
