import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importSpecifiers } from './import-graph.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** TypeScript sources of libs/ and services/ (tracked, and new ones not ignored), repository-relative, with their text. */
function sources(): Map<string, string> {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'libs/*.ts', 'services/*.ts', 'libs/*.tsx', 'services/*.tsx'], { cwd: ROOT, encoding: 'utf8' });
  const files = out.split('\n').filter((path) => path !== '' && !path.includes('node_modules/') && !path.endsWith('.d.ts'));
  return new Map(files.flatMap((file) => {
    try {
      return [[file, readFileSync(join(ROOT, file), 'utf8')] as const];
    } catch {
      return []; // deleted in the work tree, still in the index
    }
  }));
}

/** Each workspace package's directory and its `@herald/*` dependencies (not dev dependencies: tests of a lib may use libs/testing, which uses the lib). */
function workspaces(): Map<string, { dir: string; deps: string[] }> {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'libs/*/package.json', 'services/*/package.json'], { cwd: ROOT, encoding: 'utf8' });
  const packages = new Map<string, { dir: string; deps: string[] }>();
  for (const file of out.split('\n').filter((path) => /^(libs|services)\/[^/]+\/package\.json$/.test(path))) {
    const json = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { name: string; dependencies?: Record<string, string> };
    const deps = Object.keys(json.dependencies ?? {}).filter((name) => name.startsWith('@herald/'));
    packages.set(json.name, { dir: dirname(file), deps });
  }
  return packages;
}

describe('importSpecifiers', () => {
  it('reads imports, type imports, re-exports, side-effect and dynamic imports, over several lines, and skips comments', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      '  type D,',
      "} from './c.ts';",
      "export * from './e.ts';",
      "export { f, type G } from './f.ts';",
      "import './side.ts';",
      "const h = await import('./h.ts');",
      "import { x } from '@herald/kafka';",
      "// import { no } from './commented.ts';",
      "/* export * from './block.ts'; */",
      "const url = 'https://example.com'; // import y from './trailing.ts'",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.ts', '../b.ts', './c.ts', './e.ts', './f.ts', '@herald/kafka', './side.ts', './h.ts']);
  });
});

describe('importCycles', () => {
  it('finds each cycle once, of two files, of three, and a file importing itself; a chain is none', () => {
    const graph = importGraph(
      new Map([
        ['s/start.ts', "import { f } from './fan/start-fanout.ts';\nimport { s } from './send/start-senders.ts';"],
        ['s/fan/start-fanout.ts', "import type { Deps } from '../start.ts';"],
        ['s/send/start-senders.ts', "import type { Deps } from '../start.ts';\nimport { t } from './three-a.ts';"],
        ['s/send/three-a.ts', "import { u } from './three-b.ts';"],
        ['s/send/three-b.ts', "import { v } from './three-c.ts';"],
        ['s/send/three-c.ts', "import { w } from './three-a.ts';"],
        ['s/self.ts', "export * from './self.ts';"],
        ['s/chain-a.ts', "import { x } from './chain-b.ts';"],
        ['s/chain-b.ts', "import { y } from './gone.ts';"],
      ]),
    );
    expect(importCycles(graph).sort()).toEqual([
      ['s/fan/start-fanout.ts', 's/send/start-senders.ts', 's/start.ts'],
      ['s/self.ts'],
      ['s/send/three-a.ts', 's/send/three-b.ts', 's/send/three-c.ts'],
    ]);
    expect(importCycles(importGraph(new Map([['a.ts', "import { b } from './b.ts';"], ['b.ts', 'export const b = 1;']])))).toEqual([]);
  });
});

describe('libs/ and services/', () => {
  it('have no import cycle between their files (type-only imports count)', () => {
    expect(importCycles(importGraph(sources()))).toEqual([]);
  });

  it('have no cycle between their packages, and no service depends on another service', () => {
    const packages = workspaces();
    const graph = new Map([...packages].map(([name, { deps }]) => [name, deps.filter((dep) => packages.has(dep))]));
    expect(importCycles(graph)).toEqual([]);
    const services = new Set([...packages].filter(([, { dir }]) => dir.startsWith('services/')).map(([name]) => name));
    const crossing = [...services].flatMap((name) => graph.get(name)!.filter((dep) => services.has(dep)).map((dep) => `${name} -> ${dep}`));
    expect(crossing).toEqual([]);
  });

  it('import no other service, by package or by path', () => {
    const crossing: string[] = [];
    const files = sources();
    for (const [file, text] of files) {
      const service = /^services\/([^/]+)\//.exec(file)?.[1];
      if (service === undefined) continue;
      for (const specifier of importSpecifiers(text)) {
        const target = specifier.startsWith('.') ? /^services\/([^/]+)\//.exec(join(dirname(file), specifier))?.[1] : undefined;
        if (target !== undefined && target !== service) crossing.push(`${file} -> ${specifier}`);
      }
    }
    expect(crossing).toEqual([]);
  });
});
