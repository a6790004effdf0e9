import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { apiTypes, SCHEMA_FILE } from './generate.ts';

describe("the client's API types", () => {
  it('are those the current OpenAPI document gives (else: npm run generate -w @herald/client)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await apiTypes());
  }, 30_000);
});
