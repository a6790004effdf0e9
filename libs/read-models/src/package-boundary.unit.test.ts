import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));

// The read models are pure: services, the audience predicate and the explainer
// import them without loading the store driver or the Kafka client.
describe('@herald/read-models', () => {
  it('depends on @herald/events only', () => {
    const json = JSON.parse(readFileSync(join(HERE, '../package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(json.dependencies ?? {})).toEqual(['@herald/events']);
  });

  it('imports nothing but its own modules and @herald/events', () => {
    const foreign: string[] = [];
    for (const file of readdirSync(HERE).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const text = readFileSync(join(HERE, file), 'utf8');
      for (const match of text.matchAll(/^(?:import|export)[^'";]*from '([^']+)'/gm)) {
        const specifier = match[1]!;
        if (!specifier.startsWith('./') && specifier !== '@herald/events') foreign.push(`${file} -> ${specifier}`);
      }
    }
    expect(foreign).toEqual([]);
  });
});
