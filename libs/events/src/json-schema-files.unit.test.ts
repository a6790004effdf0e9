import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonSchemaFiles, SCHEMA_DIR } from './json-schema-files.ts';

const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), SCHEMA_DIR);

describe('exported event JSON Schemas', () => {
  it('are up to date with libs/events (run `npm run events:export` after changing an event)', async () => {
    const expected = jsonSchemaFiles();
    const committed = (await readdir(dir)).filter((name) => name.endsWith('.schema.json')).sort();
    expect(committed).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) {
      expect(await readFile(join(dir, name), 'utf8'), `${SCHEMA_DIR}/${name} is stale`).toBe(content);
    }
  });
});
