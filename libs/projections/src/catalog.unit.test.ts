import { describe, expect, it } from 'vitest';
import { repeatedIndexes } from '@herald/mongo';
import { PROJECTIONS } from './catalog.ts';

describe('read model index declarations', () => {
  it('name each index once per read model, and declare each key pattern once', () => {
    for (const projection of Object.values(PROJECTIONS)) {
      // These are read by `_id` (or an `_id` range) only.
      if (!['project_outcomes', 'notification_reports'].includes(projection.name)) expect(projection.indexes.length, projection.name).toBeGreaterThan(0);
      expect(repeatedIndexes(projection.indexes), projection.name).toEqual([]);
    }
  });
});
