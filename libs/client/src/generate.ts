// Generates src/schema.d.ts, the types of Herald's public API, from the
// OpenAPI document the API serves (/docs/json, built here without Kafka or a
// store). openapi-fetch checks every call of the client against them, so an
// integrator's code (and the console) cannot drift from the API; a unit test
// fails when the file is stale. `npm run generate -w @herald/client`.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '@herald/api';

export const SCHEMA_FILE = join(dirname(fileURLToPath(import.meta.url)), 'schema.d.ts');

export const SCHEMA_HEADER = "// Generated from the API's OpenAPI document (/docs/json) by libs/client/src/generate.ts. Do not edit.\n\n";

/** The TypeScript the API's current document gives. */
export async function apiTypes(): Promise<string> {
  const ast = await openapiTS(await openApiDocument() as never);
  return SCHEMA_HEADER + astToString(ast);
}

/** Writes the current types to src/schema.d.ts. */
export async function writeApiTypes(): Promise<void> {
  await writeFile(SCHEMA_FILE, await apiTypes());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeApiTypes();
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
