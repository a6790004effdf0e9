// Generates web/api/schema.d.ts, the console's types for the public API, from
// the OpenAPI document the API serves (/docs/json, built here without Kafka or a
// store). The typed client (openapi-fetch) checks every call against it, so the
// console cannot drift from the API. Run by the build; `npm run types -w @herald/console` alone.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '@herald/api';

export const CONSOLE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMA_FILE = join(CONSOLE_ROOT, 'web/api/schema.d.ts');

const HEADER = '// Generated from the API\'s OpenAPI document (/docs/json) by services/console/src/build/api-types.ts. Do not edit.\n\n';

/** The TypeScript the API's current document gives. */
export async function apiTypes(): Promise<string> {
  const ast = await openapiTS(await openApiDocument() as never);
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(SCHEMA_FILE, await apiTypes());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
