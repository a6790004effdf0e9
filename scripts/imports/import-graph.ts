import { dirname, join, normalize } from 'node:path';

/** A module graph: each file (repository-relative) and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

// `import x from '…'`, `import type {…} from '…'`, `export {…} from '…'`, `export * from '…'`, `import '…'`, `import('…')`.
const SPECIFIERS = [/\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];

/** The module specifiers a TypeScript source imports or re-exports, in order, each once (pure). */
export function importSpecifiers(source: string): string[] {
  // Comments may name an import ("import x from './y.ts'") without making one.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = new Set<string>();
  for (const pattern of SPECIFIERS) for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** The file a relative specifier names from `file`, when it is one of `files`; undefined for packages and unknown paths (pure). */
export function resolveRelative(file: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const target = normalize(join(dirname(file), specifier));
  return files.has(target) ? target : undefined;
}

/** The graph of relative imports between `sources` (file → text), type-only imports included: a cycle of types is a cycle of modules to read (pure). */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    graph.set(file, importSpecifiers(text).flatMap((specifier) => resolveRelative(file, specifier, files) ?? []));
  }
  return graph;
}

/**
 * Every import cycle of a graph (pure), each once: the strongly connected
 * components of more than one node, or of one node importing itself, as the
 * sorted list of their members (Tarjan's algorithm, iterative).
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next);
    next += 1;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge]!;
        frame.edge += 1;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next);
          next += 1;
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}
