import { describe, expect, it } from 'vitest';
import { FERRETDB_INDEXES } from '@herald/mongo';
import { PROJECTIONS } from './catalog.ts';
import { COUNTER_INDEXES } from '@herald/read-models';

describe("the local store's indexes", () => {
  it('name only indexes the read models declare', () => {
    const declared: Record<string, readonly { name?: string }[]> = Object.fromEntries(Object.values(PROJECTIONS).map((projection) => [projection.name, projection.indexes]));
    for (const projection of Object.values(PROJECTIONS)) if (projection.counts !== undefined) declared[`${projection.name}_counts`] = COUNTER_INDEXES;
    for (const [logical, names] of Object.entries(FERRETDB_INDEXES)) {
      const indexes = declared[logical];
      if (indexes === undefined) continue; // an admin collection (libs/mongo checks those)
      for (const name of names) expect(indexes.map((index) => index.name), `${logical}.${name}`).toContain(name);
    }
  });
});
