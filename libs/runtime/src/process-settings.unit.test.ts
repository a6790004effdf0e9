import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, nodeFlagsFor, SERVICE_ENV, SERVICE_NODE_FLAGS, serviceEnvFor } from './process-settings.ts';

const composeFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docker-compose.yml');

interface ComposeService {
  command: string[];
  /** The scalar `KEY: value` lines of its `environment:` (anchors merged in are not expanded). */
  environment: Record<string, string>;
}

/** Each docker-compose.yml service whose `command: [...]` runs a service's entry point, by that entry point. */
function composeServices(): Map<string, ComposeService> {
  const services = new Map<string, ComposeService>();
  for (const block of readFileSync(composeFile, 'utf8').split(/^ {2}(?=[\w-]+:$)/m)) {
    const list = /^\s+command: (\[.*\])$/m.exec(block)?.[1];
    if (list === undefined) continue;
    const command = JSON.parse(list) as string[];
    const entry = command.at(-1)!;
    if (!entry.startsWith('services/')) continue;
    const environment: Record<string, string> = {};
    for (const [, key, value] of block.matchAll(/^ {6}([A-Z][A-Z0-9_]*): "?([^"\n]*)"?$/gm)) environment[key!] = value!;
    services.set(entry, { command, environment });
  }
  return services;
}

describe('nodeFlagsFor', () => {
  it("gives every process the common flags, and a service's own after them", () => {
    expect(nodeFlagsFor('services/api/src/server.ts')).toEqual(NODE_FLAGS);
    expect(nodeFlagsFor('services/projector/src/main.ts')).toEqual([...NODE_FLAGS, '--max-semi-space-size=16']);
    expect(nodeFlagsFor('services/delivery/src/main.ts')).toEqual([...NODE_FLAGS, '--max-semi-space-size=32', '--heap-growing-percent=100']);
  });

  it('is what docker-compose.yml runs each service with', () => {
    const services = composeServices();
    expect([...services.keys()].sort()).toEqual(['services/api/src/server.ts', 'services/delivery/src/main.ts', 'services/projector/src/main.ts', 'services/webhooks/src/main.ts']);
    for (const [entry, { command }] of services) expect(command, entry).toEqual(['node', ...nodeFlagsFor(entry), entry]);
    for (const entry of Object.keys(SERVICE_NODE_FLAGS)) expect(services.has(entry), entry).toBe(true);
  });
});

describe('serviceEnvFor', () => {
  it("starts delivery with glibc's mmap threshold fixed, and lets the caller's environment win", () => {
    expect(serviceEnvFor('services/delivery/src/main.ts', { KAFKA_BROKERS: 'b:9092' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', KAFKA_BROKERS: 'b:9092' });
    expect(serviceEnvFor('services/delivery/src/main.ts', { MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '65536' });
    expect(serviceEnvFor('services/api/src/server.ts', { PORT: '3000' })).toEqual({ PORT: '3000' });
  });

  it('is in the environment docker-compose.yml gives each service', () => {
    const services = composeServices();
    for (const [entry, env] of Object.entries(SERVICE_ENV)) {
      const service = services.get(entry);
      expect(service, entry).toBeDefined();
      for (const [key, value] of Object.entries(env)) expect(service!.environment[key], `${entry} ${key}`).toBe(value);
    }
  });
});
