import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, nodeFlagsFor, SERVICE_NODE_FLAGS } from './node-flags.ts';

const composeFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docker-compose.yml');

/** Each `command: [...]` of docker-compose.yml that runs a service's entry point, by that entry point. */
function composeCommands(): Map<string, string[]> {
  const commands = new Map<string, string[]>();
  for (const [, list] of readFileSync(composeFile, 'utf8').matchAll(/^\s+command: (\[.*\])$/gm)) {
    const command = JSON.parse(list!) as string[];
    const entry = command.at(-1)!;
    if (entry.startsWith('services/')) commands.set(entry, command);
  }
  return commands;
}

describe('nodeFlagsFor', () => {
  it("gives every process the common flags, and a service's own after them", () => {
    expect(nodeFlagsFor('services/api/src/server.ts')).toEqual(NODE_FLAGS);
    expect(nodeFlagsFor('services/projector/src/main.ts')).toEqual([...NODE_FLAGS, '--max-semi-space-size=16']);
    expect(nodeFlagsFor('services/delivery/src/main.ts')).toEqual([...NODE_FLAGS, '--max-semi-space-size=32']);
  });

  it('is what docker-compose.yml runs each service with', () => {
    const commands = composeCommands();
    expect([...commands.keys()].sort()).toEqual(['services/api/src/server.ts', 'services/delivery/src/main.ts', 'services/projector/src/main.ts']);
    for (const [entry, command] of commands) expect(command, entry).toEqual(['node', ...nodeFlagsFor(entry), entry]);
    for (const entry of Object.keys(SERVICE_NODE_FLAGS)) expect(commands.has(entry), entry).toBe(true);
  });
});
