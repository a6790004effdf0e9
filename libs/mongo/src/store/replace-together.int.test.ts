import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON, MongoBulkWriteError, type AnyBulkWriteOperation, type Collection, type Document, type IndexDescription } from 'mongodb';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { HAZARD_STRINGS, hexPool, randomDocuments, randomValue, seededRandom, type Random } from './random-documents.ts';

/**
 * The differential test of Herald's FerretDB patch 6 (infra/README.md): an
 * `update` command of replacements by string `_id` runs as one query and one
 * transaction. Random commands (replacements of existing, missing and
 * upserted documents, unchanged ones, a changed `_id`, and now and then an
 * operator update, a repeated id or a non-string id, which keep upstream's
 * path) run once with the comment `herald:pushdown-off` (upstream's path) on
 * one collection and once without on its twin: what each command reports
 * and what each collection then holds must be equal. On MongoDB both runs
 * are MongoDB's.
 */
const SEEDS = (process.env.REPLACE_SEEDS ?? '6,606').split(',').map(Number);
const DOCUMENTS = 300;
const COMMANDS = 60;

const INDEXES: IndexDescription[] = [
  { key: { project_id: 1, created_at: -1, _id: -1 }, name: 'by_project_newest' },
  { key: { project_id: 1, status: 1, created_at: -1, _id: -1 }, name: 'by_project_status_newest' },
  { key: { token: 1 }, name: 'by_token' },
];

const show = (value: unknown) => BSON.EJSON.stringify(value, { relaxed: false });
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** A filter on `_id` (ids here are strings, ObjectIds or numbers: the driver's default typing says ObjectId). */
const byId = (id: unknown): Document => ({ _id: id });

/** A whole document to replace one with (without `_id`, with the same one, or now and then another). */
function replacement(random: Random, id: unknown, hexes: readonly string[]): Document {
  const doc: Document = {};
  const roll = random();
  if (roll < 0.4) doc._id = id;
  else if (roll < 0.43) doc._id = `other ${Math.floor(random() * 1000)}`;
  for (const field of ['project_id', 'status', 'token', 'created_at', 'n']) if (random() < 0.9) doc[field] = randomValue(random, HAZARD_STRINGS, hexes);
  return doc;
}

interface Outcome {
  matched?: number;
  modified?: number;
  upserted?: string;
  error?: string;
}

async function run(collection: Collection<Document>, operations: AnyBulkWriteOperation<Document>[], comment?: string): Promise<Outcome> {
  try {
    const result = await collection.bulkWrite(operations, { ordered: true, ...(comment === undefined ? {} : { comment }) });
    return { matched: result.matchedCount, modified: result.modifiedCount, upserted: show(result.upsertedIds) };
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    return { error: `${error.code}`, matched: error.result.matchedCount, modified: error.result.modifiedCount, upserted: show(error.result.upsertedIds) };
  }
}

describe.each(SEEDS)('replacements together and one by one agree (seed %i)', (seed) => {
  let env: TestEnv;
  let upstream: Collection<Document>;
  let together: Collection<Document>;
  let ids: unknown[];
  let hexes: string[];
  const random = seededRandom(seed);
  const tally = { commands: 0, together: 0, upserts: 0, unchanged: 0, errors: 0 };

  beforeAll(async () => {
    env = await createTestEnv(`replace-together-${seed}`);
    upstream = env.driverDb.collection('upstream_items');
    together = env.driverDb.collection('together_items');
    hexes = hexPool(random);
    const written = randomDocuments(random, DOCUMENTS, hexes);
    ids = written.map((doc): unknown => doc._id);
    for (const collection of [upstream, together]) {
      await collection.insertMany(written.map((doc) => ({ ...doc })));
      await collection.createIndexes(INDEXES);
    }
  });
  afterAll(async () => {
    await env?.close();
  });

  it('reports the same and leaves the same documents after random commands', async () => {
    for (let n = 0; n < COMMANDS; n += 1) {
      const current = new Map((await together.find({}).toArray()).map((doc) => [show(doc._id), doc] as const));
      const count = 2 + Math.floor(random() * 40);
      // Most commands are the shape patch 6 takes; a quarter hold one update that keeps upstream's path.
      const spoiler = random() < 0.25 ? Math.floor(random() * count) : -1;
      const plain = spoiler < 0;
      const used = new Set<string>();
      const operations: AnyBulkWriteOperation<Document>[] = [];
      for (let k = 0; k < count; k += 1) {
        // Existing string ids, and new ones that only an upsert creates.
        let id: unknown = random() < 0.8 ? pick(random, ids.filter((candidate) => typeof candidate === 'string' && !used.has(candidate))) : `new ${seed}-${n}-${k}`;
        if (k === spoiler) {
          const roll = random();
          if (roll < 0.35) {
            operations.push({ updateOne: { filter: byId(id), update: { $set: { status: 'set' } }, upsert: random() < 0.5 } });
            continue;
          }
          id = roll < 0.7 && used.size > 0 ? pick(random, [...used]) : pick(random, ids.filter((candidate) => typeof candidate !== 'string'));
        }
        if (typeof id === 'string') used.add(id);
        const existing = current.get(show(id));
        // Now and then the document as it is (matched, not modified).
        const same = existing !== undefined && random() < 0.15;
        const doc = same ? { ...existing } : replacement(random, id, hexes);
        if (same) tally.unchanged += 1;
        const upsert = random() < 0.6;
        if (upsert && existing === undefined) tally.upserts += 1;
        operations.push({ replaceOne: { filter: byId(id), replacement: doc, upsert } });
      }
      const label = `seed ${seed}, command ${n}: ${show(operations)}`;
      const off = await run(upstream, operations, 'herald:pushdown-off');
      const on = await run(together, operations);
      expect(on, label).toEqual(off);
      const [onDocs, offDocs] = await Promise.all([together, upstream].map((collection) => collection.find({}).sort({ _id: 1 }).toArray()));
      expect(onDocs!.map(show), label).toEqual(offDocs!.map(show));
      for (const doc of onDocs!) if (!ids.some((id) => show(id) === show(doc._id))) ids.push(doc._id);
      tally.commands += 1;
      if (plain) tally.together += 1;
      if (off.error !== undefined) tally.errors += 1;
    }
    // Printed so that a run shows how much each path was exercised.
    process.stdout.write(`replace-together seed ${seed}: ${JSON.stringify(tally)}\n`);
    expect(tally.together).toBeGreaterThan(COMMANDS / 2);
    expect(tally.upserts).toBeGreaterThan(20);
    expect(tally.unchanged).toBeGreaterThan(10);
    expect(tally.errors).toBeGreaterThan(2);
  });

  it('replaces 150 documents in one command (FerretDB 1.24 one by one hangs from 100)', async () => {
    const existing = await together.find({ _id: { $type: 'string' } }).limit(150).toArray();
    expect(existing.length).toBe(150);
    const operations = existing.map((doc, k) => ({ replaceOne: { filter: { _id: doc._id }, replacement: { ...doc, status: `batch ${k}` }, upsert: true } }));
    const result = await together.bulkWrite(operations, { ordered: false });
    expect([result.matchedCount, result.modifiedCount, result.upsertedCount]).toEqual([150, 150, 0]);
    const after = await together.find(byId({ $in: existing.map((doc): unknown => doc._id) })).toArray();
    expect(after.map((doc): unknown => doc.status).sort()).toEqual(existing.map((_, k) => `batch ${k}`).sort());
  });
});
