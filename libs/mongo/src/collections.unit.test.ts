import { describe, expect, it } from 'vitest';
import type { IndexDefinition } from '@herald/read-models';
import { ADMIN_INDEXES, repeatedIndexes } from './collections.ts';

describe('index declarations', () => {
  it('name each admin index once per collection, and declare each key pattern once', () => {
    for (const [collection, indexes] of Object.entries(ADMIN_INDEXES)) expect(repeatedIndexes(indexes), collection).toEqual([]);
  });
  it('finds a repeated name or key pattern', () => {
    const indexes: IndexDefinition[] = [
      { key: { a: 1 }, name: 'a' },
      { key: { a: 1 }, name: 'b' },
      { key: { c: 1 }, name: 'a' },
    ];
    expect(repeatedIndexes(indexes)).toEqual(['key {"a":1}', 'name a']);
  });
});
