import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { apiTypes, SCHEMA_FILE } from './api-types.ts';

describe("the console's API types", () => {
  it('are those the current OpenAPI document gives (else: npm run types -w @herald/console)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await apiTypes());
  }, 30_000);
});
