import { describe, expect, it } from 'vitest';
import type { IndexDescription } from 'mongodb';
import { ADMIN_INDEXES } from '../collections.ts';
import { FERRETDB_INDEXES, ferretdbStore } from './ferretdb-store.ts';
import { logicalCollection, mongodbStore } from './store-adapter.ts';

describe('store adapters', () => {
  const declared: IndexDescription[] = [
    { key: { project_id: 1, created_at: 1, _id: 1 }, name: 'by_project_created' },
    { key: { project_id: 1, topics: 1 }, name: 'by_project_topic' },
  ];

  it('MongoDB creates every declared index; the local FerretDB only those its SQL reads through', () => {
    expect(mongodbStore.indexesFor('devices', declared)).toEqual(declared);
    expect(ferretdbStore.indexesFor('devices', declared)).toEqual([declared[0]]);
    expect(ferretdbStore.indexesFor('unknown', declared)).toEqual([]);
  });

  it('name collections without their read-model version', () => {
    expect(logicalCollection('devices_v2')).toBe('devices');
    expect(logicalCollection('devices_v12_counts')).toBe('devices_counts');
    expect(logicalCollection('api_keys')).toBe('api_keys');
  });

  it('list only admin indexes that are declared (read models are checked in libs/projections)', () => {
    for (const [collection, names] of Object.entries(FERRETDB_INDEXES)) {
      const indexes = ADMIN_INDEXES[collection];
      if (indexes === undefined) continue;
      for (const name of names) expect(indexes.map((index) => index.name), `${collection}.${name}`).toContain(name);
    }
  });
});
