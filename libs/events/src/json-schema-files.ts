import { eventSchemas } from './codec.ts';

/** Where the exported JSON Schemas live, relative to the repository root. */
export const SCHEMA_DIR = 'docs/events';

/**
 * The JSON Schema documents analytics teams consume, one file per event
 * version, as file name → file content. Pure, so a test can compare it with
 * what is committed.
 */
export function jsonSchemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { id, schema } of eventSchemas()) {
    const document = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema };
    files.set(`${id}.schema.json`, `${JSON.stringify(document, null, 2)}\n`);
  }
  return files;
}
