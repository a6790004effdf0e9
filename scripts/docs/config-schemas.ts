// Finds every service's config schema (services/<name>/src/config.ts, its
// exported `...Config` typebox objects) for the configuration reference. By
// path, not by package: a new service's settings are documented, and the
// staleness test fails, without anyone remembering to list it here.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServiceSchema } from './config-reference.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CONFIG_PAGE = 'docs/reference/configuration.md';
export const ENV_EXAMPLE = '.env.example';

export async function serviceSchemas(): Promise<ServiceSchema[]> {
  const services = readdirSync(join(ROOT, 'services')).filter((name) => existsSync(join(ROOT, 'services', name, 'src/config.ts'))).sort();
  const found: ServiceSchema[] = [];
  for (const name of services) {
    const module = (await import(pathToFileURL(join(ROOT, 'services', name, 'src/config.ts')).href)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(module)) {
      if (!exported.endsWith('Config') || typeof value !== 'object' || value === null || !('properties' in value)) continue;
      found.push({ name, schema: value as ServiceSchema['schema'] });
    }
  }
  return found;
}
