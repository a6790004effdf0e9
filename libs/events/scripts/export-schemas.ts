// Writes docs/events/<Type>.v<N>.schema.json from the typebox schemas in libs/events.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemaFiles, SCHEMA_DIR } from '../src/json-schema-files.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = join(root, SCHEMA_DIR);
await mkdir(dir, { recursive: true });
const files = jsonSchemaFiles();
for (const name of await readdir(dir)) {
  if (name.endsWith('.schema.json') && !files.has(name)) await rm(join(dir, name));
}
for (const [name, content] of files) await writeFile(join(dir, name), content);
process.stdout.write(`wrote ${files.size} event schemas to ${SCHEMA_DIR}/\n`);
