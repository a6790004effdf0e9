import { describe, expect, it } from 'vitest';
import { INDEXES } from './collections.ts';

describe('index declarations', () => {
  it('name each index once per collection, and declare each key pattern once', () => {
    for (const [collection, indexes] of Object.entries(INDEXES)) {
      const names = indexes.map((index) => index.name);
      const keys = indexes.map((index) => JSON.stringify(index.key));
      expect(new Set(names).size, `${collection}: index names ${names.join(', ')}`).toBe(names.length);
      expect(new Set(keys).size, `${collection}: key patterns ${keys.join(', ')}`).toBe(keys.length);
    }
  });
});
