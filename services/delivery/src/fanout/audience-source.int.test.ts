import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadModelRegistry, type Collection } from '@herald/mongo';
import type { DeviceDocument } from '@herald/projections';
import { createTestEnv, type TestEnv } from '@herald/testing';
import type { Audience } from '@herald/audience';
import { StorageOrderAudienceSource, type PageRequest } from './audience-source.ts';
import { deviceDoc } from './test-devices.ts';

/**
 * The FerretDB audience source over the real store: pages follow the
 * storage order, a held scan continues where it stopped, and a new source
 * (another instance, a restart) finds its place again even when the last
 * device handed out has since been deactivated or has left the audience.
 */
let env: TestEnv;
let devices: Collection<DeviceDocument>;
const projectId = 'project-scan';
const audience: Audience = { projectId, topicIds: ['news'], deviceRefs: [], metadataFilters: [], externalIds: [] };
const tokens: string[] = Array.from({ length: 50 }, (_, n) => `scan-${String(n).padStart(2, '0')}`);
/** The tokens in the order they were stored. */
let insertionOrder: string[];

beforeAll(async () => {
  env = await createTestEnv('audience-source');
  devices = await new ReadModelRegistry(env.mongo.db).collection<DeviceDocument>('devices');
  // Inserted in reverse id order, so storage order and id order differ.
  const docs = tokens.map((token, n) => ({ ...deviceDoc(projectId, token, n, {}), topics: ['news'] }));
  const inserted = docs.toSorted((a, b) => b._id.localeCompare(a._id));
  insertionOrder = inserted.map((doc) => doc.token);
  await devices.insertMany(inserted);
  await devices.insertOne({ ...deviceDoc('another-project', 'scan-other', 99, {}), topics: ['news'] });
});
afterAll(async () => {
  await env?.close();
});

const request = (fanoutId: string, after: string | undefined, limit: number): PageRequest => ({ fanoutId, devices, audience, after, limit });
const tokensOf = (rows: ReadonlyArray<{ token: string }>) => rows.map((row) => row.token);

async function readAll(source: StorageOrderAudienceSource, fanoutId: string, limit: number): Promise<string[]> {
  const read: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await source.page(request(fanoutId, after, limit));
    read.push(...tokensOf(page));
    if (page.length < limit) return read;
    after = page.at(-1)!._id;
  }
}

describe('StorageOrderAudienceSource', () => {
  it('hands out every audience device once, in storage order, page after page', async () => {
    const source = new StorageOrderAudienceSource();
    expect(await readAll(source, 'n-all', 7)).toEqual(insertionOrder);
    expect(source.reopened).toBe(0);
    await source.close();
  });

  it('finds its place again in a new source, skipping deactivated devices, even when the last one handed out was deactivated since', async () => {
    const first = new StorageOrderAudienceSource();
    const page = await first.page(request('n-resume', undefined, 10));
    await first.close();
    const last = page.at(-1)!;
    await devices.updateOne({ _id: last._id }, { $set: { status: 'inactive' } });
    const next = await devices.find({ project_id: projectId }).project<{ _id: string; token: string }>({ _id: 1, token: 1 }).toArray();
    const expected = next.slice(next.findIndex((row) => row._id === last._id) + 1, next.findIndex((row) => row._id === last._id) + 11);
    const restarted = new StorageOrderAudienceSource();
    expect(tokensOf(await restarted.page(request('n-resume', last._id, 10)))).toEqual(tokensOf(expected));
    await restarted.close();
    await devices.updateOne({ _id: last._id }, { $set: { status: 'active' } });
  });

  it('finds its place when the last device handed out has left the audience, and hands out nothing twice', async () => {
    const first = new StorageOrderAudienceSource();
    const page = await first.page(request('n-left', undefined, 20));
    await first.close();
    const last = page.at(-1)!;
    await devices.updateOne({ _id: last._id }, { $set: { topics: [] } });
    const restarted = new StorageOrderAudienceSource();
    const rest: string[] = [];
    let after: string | undefined = last._id;
    for (;;) {
      const next = await restarted.page(request('n-left', after, 20));
      rest.push(...tokensOf(next));
      if (next.length < 20) break;
      after = next.at(-1)!._id;
    }
    await restarted.close();
    expect(rest).toHaveLength(tokens.length - 20);
    expect(new Set([...tokensOf(page), ...rest]).size).toBe(tokens.length);
    await devices.updateOne({ _id: last._id }, { $set: { topics: ['news'] } });
  });

  it('holds its scan across getMore batches and concurrent queries on the same client', async () => {
    const many = Array.from({ length: 2_500 }, (_, n) => ({ ...deviceDoc(projectId, `many-${n}`, n, {}), topics: ['many'] }));
    await devices.insertMany(many);
    const source = new StorageOrderAudienceSource();
    const manyAudience = { ...audience, topicIds: ['many'] };
    const read: string[] = [];
    let after: string | undefined;
    for (;;) {
      // Other reads between the pages take the pool's connections, as the fan-out's other work does.
      await Promise.all([devices.countDocuments({ project_id: 'another-project' }), devices.findOne({ project_id: projectId })]);
      const page = await source.page({ fanoutId: 'n-many', devices, audience: manyAudience, after, limit: 400 });
      read.push(...tokensOf(page));
      if (page.length < 400) break;
      after = page.at(-1)!._id;
    }
    expect(read).toEqual(many.map((doc) => doc.token));
    expect(source.reopened).toBe(0);
    await source.close();
  });

  it('keeps reading one held scan per fan-out, fan-outs apart, and re-opens one it had to let go', async () => {
    const source = new StorageOrderAudienceSource({ maxOpen: 1 });
    const a1 = await source.page(request('n-a', undefined, 5));
    const b1 = await source.page(request('n-b', undefined, 5));
    // n-a's scan was closed to keep one open: its next page re-opens and seeks.
    const a2 = await source.page(request('n-a', a1.at(-1)!._id, 5));
    const b2 = await source.page(request('n-b', b1.at(-1)!._id, 5));
    expect(tokensOf(a1)).toEqual(tokensOf(b1));
    expect(tokensOf(a2)).toEqual(tokensOf(b2));
    expect(new Set([...tokensOf(a1), ...tokensOf(a2)]).size).toBe(10);
    expect(source.reopened).toBe(2);
    await source.close();
  });
});
