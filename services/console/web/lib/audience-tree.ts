/**
 * The audience builder's state as a tree, and the two pure functions
 * between it and the API's target expression (docs/guides/targets.md):
 * `targetOf(treeOf(t))` is `t` for any target. What the builder has no
 * control for (a plain string, a metadata object testing several keys, a
 * value that is not a string) is kept whole as a JSON node, editable as
 * text, so nothing is lost or rewritten.
 */
export type LeafKind = 'topic' | 'platform' | 'locale' | 'timezone' | 'external_id' | 'device_id' | 'token' | 'segment';
export type MetadataTest = 'eq' | 'in' | 'exists' | 'ne';

export type AudienceNode =
  | { id: string; kind: 'and' | 'or'; children: AudienceNode[] }
  | { id: string; kind: 'not'; child: AudienceNode }
  | { id: string; kind: LeafKind; value: string }
  | { id: string; kind: 'metadata'; key: string; test: MetadataTest; values: string[]; exists: boolean }
  | { id: string; kind: 'json'; text: string };

export type GroupNode = Extract<AudienceNode, { kind: 'and' | 'or' }>;
export type LeafNode = Exclude<AudienceNode, { kind: 'and' | 'or' | 'not' }>;
export const isGroup = (node: AudienceNode): node is GroupNode => node.kind === 'and' || node.kind === 'or';

export const LEAF_KINDS: ReadonlyArray<{ kind: LeafKind | 'metadata' | 'json'; label: string }> = [
  { kind: 'topic', label: 'Topic' },
  { kind: 'platform', label: 'Platform' },
  { kind: 'metadata', label: 'Metadata' },
  { kind: 'locale', label: 'Locale' },
  { kind: 'timezone', label: 'Time zone' },
  { kind: 'external_id', label: 'User (external id)' },
  { kind: 'device_id', label: 'Device id' },
  { kind: 'token', label: 'Device token' },
  { kind: 'segment', label: 'Saved segment' },
  { kind: 'json', label: 'JSON' },
];
const LEAF_KEYS = new Set<string>(['topic', 'platform', 'locale', 'timezone', 'external_id', 'device_id', 'token', 'segment']);

let counter = 0;
/** Ids only tell nodes apart on screen (keys, error anchors); they never reach the API. */
export const newId = (): string => `n${(counter += 1)}`;

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const json = (target: unknown): AudienceNode => ({ id: newId(), kind: 'json', text: JSON.stringify(target) });

function metadataNode(tests: Loose): AudienceNode | undefined {
  const entries = Object.entries(tests);
  if (entries.length !== 1) return undefined;
  const [key, test] = entries[0]!;
  const base = { id: newId(), kind: 'metadata' as const, key, values: [''], exists: true };
  if (typeof test === 'string') return { ...base, test: 'eq', values: [test] };
  if (!isObject(test) || Object.keys(test).length !== 1) return undefined;
  if (isStrings(test.in) && test.in.length > 0) return { ...base, test: 'in', values: [...test.in] };
  if (typeof test.exists === 'boolean') return { ...base, test: 'exists', exists: test.exists };
  if (typeof test.ne === 'string') return { ...base, test: 'ne', values: [test.ne] };
  return undefined;
}

/** The builder's tree for one target; any part it has no control for becomes a JSON node. */
export function treeOf(target: unknown): AudienceNode {
  if (!isObject(target) || Object.keys(target).length !== 1) return json(target);
  const [key, value] = Object.entries(target)[0]!;
  if ((key === 'and' || key === 'or') && Array.isArray(value)) return { id: newId(), kind: key, children: value.map(treeOf) };
  if (key === 'not' && value !== undefined && value !== null) return { id: newId(), kind: 'not', child: treeOf(value) };
  if (LEAF_KEYS.has(key) && typeof value === 'string') return { id: newId(), kind: key as LeafKind, value };
  if (key === 'metadata' && isObject(value)) return metadataNode(value) ?? json(target);
  return json(target);
}

function metadataTarget(node: Extract<AudienceNode, { kind: 'metadata' }>): unknown {
  const first = node.values[0] ?? '';
  const test = node.test === 'eq' ? first : node.test === 'in' ? { in: node.values } : node.test === 'exists' ? { exists: node.exists } : { ne: first };
  return { metadata: { [node.key]: test } };
}

/**
 * The API's target for a tree, exactly as sent. A JSON node that does not
 * parse is sent as its text (a string target), so the API names its path;
 * `problemsOf` says so before that.
 */
export function targetOf(node: AudienceNode): unknown {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { [node.kind]: node.children.map(targetOf) };
    case 'not':
      return { not: targetOf(node.child) };
    case 'metadata':
      return metadataTarget(node);
    case 'json':
      try {
        return JSON.parse(node.text) as unknown;
      } catch {
        return node.text;
      }
    default:
      return { [node.kind]: node.value };
  }
}

/** The JSON nodes whose text does not parse: the builder's own problems, by node id. */
export function problemsOf(node: AudienceNode, found: Map<string, string[]> = new Map()): Map<string, string[]> {
  if (node.kind === 'json') {
    try {
      JSON.parse(node.text);
    } catch {
      found.set(node.id, ['is not JSON: write one target, e.g. {"topic": "news"}']);
    }
  }
  for (const child of childrenOf(node)) problemsOf(child, found);
  return found;
}

export function childrenOf(node: AudienceNode): AudienceNode[] {
  return node.kind === 'and' || node.kind === 'or' ? node.children : node.kind === 'not' ? [node.child] : [];
}

/** Each node's path under a target (`.and[2].not`), as the API's 422 messages name it. */
export function pathsOf(node: AudienceNode, path = '', paths: Array<{ id: string; path: string }> = []): Array<{ id: string; path: string }> {
  paths.push({ id: node.id, path });
  if (node.kind === 'and' || node.kind === 'or') node.children.forEach((child, index) => pathsOf(child, `${path}.${node.kind}[${index}]`, paths));
  if (node.kind === 'not') pathsOf(node.child, `${path}.not`, paths);
  return paths;
}

/**
 * The API's messages at the node they name (`notification.targets[1].and[2].not: …`
 * with prefix `notification.targets[1]`): the deepest node whose path the
 * message starts with, said from that node (`platform: must be …`, or the
 * rest after the colon). Messages about no node of this tree are `unplaced`.
 */
export function errorsByNode(root: AudienceNode, prefix: string, messages: readonly string[]): { byNode: Map<string, string[]>; unplaced: string[] } {
  const paths = pathsOf(root).sort((a, b) => b.path.length - a.path.length);
  const byNode = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const message of messages) {
    const node = paths.find(({ path }) => {
      const full = `${prefix}${path}`;
      return message.startsWith(full) && /^[:.[ ]/.test(message.slice(full.length));
    });
    if (node === undefined) {
      unplaced.push(message);
      continue;
    }
    const text = message.slice(`${prefix}${node.path}`.length).replace(/^\.?:?\s*/, '');
    byNode.set(node.id, [...(byNode.get(node.id) ?? []), text]);
  }
  return { byNode, unplaced };
}

/** The tree with the node `id` replaced by `replace(node)` (which may return undefined: removed from its group). */
export function updateNode(root: AudienceNode, id: string, replace: (node: AudienceNode) => AudienceNode | undefined): AudienceNode | undefined {
  if (root.id === id) return replace(root);
  if (root.kind === 'and' || root.kind === 'or') {
    const children = root.children.map((child) => updateNode(child, id, replace)).filter((child): child is AudienceNode => child !== undefined);
    return { ...root, children };
  }
  if (root.kind === 'not') {
    const child = updateNode(root.child, id, replace);
    // A NOT whose condition was removed goes with it: a "not of nothing" is no target.
    return child === undefined ? undefined : { ...root, child };
  }
  return root;
}

/** A fresh leaf of a kind, keeping the typed value where it still means something. */
export function leafOf(kind: LeafKind | 'metadata' | 'json', previous?: AudienceNode): AudienceNode {
  const id = previous?.id ?? newId();
  if (kind === 'metadata') return { id, kind, key: '', test: 'eq', values: [''], exists: true };
  if (kind === 'json') return { id, kind, text: previous === undefined ? '{}' : JSON.stringify(targetOf(previous)) };
  return { id, kind, value: kind === 'platform' ? 'ios' : '' };
}

export const emptyGroup = (kind: 'and' | 'or' = 'and'): GroupNode => ({ id: newId(), kind, children: [] });
