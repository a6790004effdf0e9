import { PLATFORMS } from '@herald/events';
import { isTimeZone } from '@herald/runtime';
import { canonicalLocale } from './locale.ts';

/**
 * The limits on a send's target expressions (docs/guides/targets.md): they
 * bound what one send costs to check per device, however the request is
 * written. Plain targets (strings and typed leaves at the top) keep their
 * own limit, the list's 10,000 entries.
 */
export const EXPRESSION_LIMITS = {
  /** `and` / `or` / `not` nested at most this deep. */
  depth: 8,
  /** Nodes (operators and leaves) of one target at most. */
  nodes: 200,
  /** Nodes of every expression of one send together. */
  totalNodes: 1_000,
  /** Children of one `and` / `or`, values of one `in`. */
  list: 100,
  /** Key tests in one metadata leaf. */
  metadataKeys: 64,
  keyLength: 64,
  valueLength: 1024,
  stringLength: 4096,
} as const;

const OPERATORS = ['and', 'or', 'not'] as const;
const LEAVES = ['topic', 'device_id', 'token', 'external_id', 'metadata', 'platform', 'locale', 'timezone', 'segment'] as const;
const KEYS: readonly string[] = [...OPERATORS, ...LEAVES];

/** Metadata keys are document fields (no '.', no leading '$', no control characters) and may not have white space at either end (FerretDB trims it). */
// eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
const KEY_FORM = /^[^.$\u0000-\u001f\u2028\u2029][^.\u0000-\u001f\u2028\u2029]*$/u;
const EDGE_SPACE = /^[\s\u0085]|[\s\u0085]$/u;

interface Walk {
  problems: string[];
  nodes: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function stringProblem(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return `must be a string, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  return undefined;
}

function metadataProblems(path: string, filter: unknown, walk: Walk): void {
  if (!isObject(filter)) {
    walk.problems.push(`${path}: must be an object of key tests`);
    return;
  }
  const entries = Object.entries(filter);
  if (entries.length === 0) walk.problems.push(`${path}: must test at least one key`);
  if (entries.length > EXPRESSION_LIMITS.metadataKeys) walk.problems.push(`${path}: tests ${entries.length} keys, at most ${EXPRESSION_LIMITS.metadataKeys}`);
  for (const [key, test] of entries.slice(0, EXPRESSION_LIMITS.metadataKeys)) {
    const at = `${path}.${JSON.stringify(key)}`;
    if (key.length === 0 || key.length > EXPRESSION_LIMITS.keyLength || !KEY_FORM.test(key)) {
      walk.problems.push(`${at}: a key is 1–${EXPRESSION_LIMITS.keyLength} characters, without '.' or control characters, not starting with '$'`);
    } else if (EDGE_SPACE.test(key)) walk.problems.push(`${at}: a key must not start or end with white space`);
    if (typeof test === 'string') {
      if (test.length > EXPRESSION_LIMITS.valueLength) walk.problems.push(`${at}: a value is at most ${EXPRESSION_LIMITS.valueLength} characters`);
      continue;
    }
    const [operator, ...more] = isObject(test) ? Object.keys(test) : [];
    if (operator === undefined || more.length > 0 || !['in', 'exists', 'ne'].includes(operator)) {
      walk.problems.push(`${at}: must be a string (equality) or one of {"in": [...]}, {"exists": true|false}, {"ne": "..."}`);
      continue;
    }
    const operand = (test as Record<string, unknown>)[operator];
    if (operator === 'exists' && typeof operand !== 'boolean') walk.problems.push(`${at}.exists: must be true or false`);
    if (operator === 'ne' && (typeof operand !== 'string' || operand.length > EXPRESSION_LIMITS.valueLength)) walk.problems.push(`${at}.ne: must be a string of at most ${EXPRESSION_LIMITS.valueLength} characters`);
    if (operator === 'in') {
      if (!Array.isArray(operand) || operand.length === 0) walk.problems.push(`${at}.in: must be a list of 1 to ${EXPRESSION_LIMITS.list} strings`);
      else if (operand.length > EXPRESSION_LIMITS.list) walk.problems.push(`${at}.in: has ${operand.length} values, at most ${EXPRESSION_LIMITS.list}`);
      else if (operand.some((value) => typeof value !== 'string' || value.length > EXPRESSION_LIMITS.valueLength)) walk.problems.push(`${at}.in: every value must be a string of at most ${EXPRESSION_LIMITS.valueLength} characters`);
    }
  }
}

function leafProblems(path: string, key: (typeof LEAVES)[number], value: unknown, walk: Walk): void {
  if (key === 'metadata') return metadataProblems(path, value, walk);
  const problem = stringProblem(value, key === 'external_id' || key === 'segment' ? 256 : EXPRESSION_LIMITS.stringLength);
  if (problem !== undefined) return void walk.problems.push(`${path}: ${problem}`);
  const text = value as string;
  if (key === 'platform' && !PLATFORMS.includes(text)) walk.problems.push(`${path}: ${JSON.stringify(text)} is not a platform (${PLATFORMS.join(', ')})`);
  if (key === 'locale' && canonicalLocale(text) === undefined) walk.problems.push(`${path}: ${JSON.stringify(text)} is not a BCP 47 language tag (e.g. fr, fr-CA)`);
  if (key === 'timezone' && !isTimeZone(text)) walk.problems.push(`${path}: ${JSON.stringify(text)} is not an IANA time zone name (e.g. Europe/Paris)`);
}

function nodeProblems(path: string, node: unknown, depth: number, walk: Walk): void {
  walk.nodes += 1;
  if (typeof node === 'string') {
    const problem = stringProblem(node, EXPRESSION_LIMITS.stringLength);
    if (problem !== undefined) walk.problems.push(`${path}: ${problem}`);
    return;
  }
  if (!isObject(node)) {
    walk.problems.push(`${path}: must be a target (a string or an object), not ${node === null || node === undefined ? 'nothing' : Array.isArray(node) ? 'a list' : typeof node}`);
    return;
  }
  const keys = Object.keys(node);
  const unknown = keys.filter((key) => !KEYS.includes(key));
  if (unknown.length > 0) return void walk.problems.push(`${path}: unknown key ${unknown.map((key) => JSON.stringify(key)).join(', ')} (a target has one of ${KEYS.join(', ')})`);
  if (keys.length !== 1) return void walk.problems.push(`${path}: a target has exactly one key of ${KEYS.join(', ')}${keys.length === 0 ? ', not none' : `, not ${keys.join(' and ')}`}`);
  const key = keys[0] as (typeof OPERATORS)[number] | (typeof LEAVES)[number];
  const value = node[key];
  if (key !== 'and' && key !== 'or' && key !== 'not') return leafProblems(`${path}.${key}`, key, value, walk);
  if (depth >= EXPRESSION_LIMITS.depth) return void walk.problems.push(`${path}.${key}: nested deeper than ${EXPRESSION_LIMITS.depth} operators`);
  if (key === 'not') {
    if (value === undefined || value === null) return void walk.problems.push(`${path}.not: must hold a target, not nothing`);
    return nodeProblems(`${path}.not`, value, depth + 1, walk);
  }
  if (!Array.isArray(value)) return void walk.problems.push(`${path}.${key}: must be a list of targets`);
  if (value.length === 0) return void walk.problems.push(`${path}.${key}: must hold at least one target`);
  if (value.length > EXPRESSION_LIMITS.list) return void walk.problems.push(`${path}.${key}: holds ${value.length} targets, at most ${EXPRESSION_LIMITS.list}`);
  value.forEach((child, at) => nodeProblems(`${path}.${key}[${at}]`, child, depth + 1, walk));
}

/** The problems of one target at `path` (a saved segment's filter, one element of a send's targets), each naming the node's path. */
export function expressionProblems(target: unknown, path: string): string[] {
  if (!isObject(target)) return [];
  const walk: Walk = { problems: [], nodes: 0 };
  nodeProblems(path, target, 0, walk);
  if (walk.nodes > EXPRESSION_LIMITS.nodes) walk.problems.push(`${path}: has ${walk.nodes} nodes, at most ${EXPRESSION_LIMITS.nodes}`);
  return walk.problems.slice(0, 20);
}

/**
 * Every problem with a send's targets that the route schema does not catch
 * (pure), each naming the path of the offending node
 * (`notification.targets[0].and[2].not: …`): unknown keys, empty `and` /
 * `or`, a `not` of nothing, wrong types, values no device can hold, and the
 * limits above. Stops collecting past 20 problems.
 */
export function targetProblems(targets: unknown, prefix = 'notification.targets'): string[] {
  if (!Array.isArray(targets)) return [];
  const problems: string[] = [];
  let total = 0;
  for (let at = 0; at < targets.length && problems.length < 20; at += 1) {
    const target: unknown = targets[at];
    // Plain strings are the route schema's (length, emptiness): only objects are walked.
    if (!isObject(target)) continue;
    const walk: Walk = { problems: [], nodes: 0 };
    nodeProblems(`${prefix}[${at}]`, target, 0, walk);
    if (walk.nodes > EXPRESSION_LIMITS.nodes) walk.problems.push(`${prefix}[${at}]: has ${walk.nodes} nodes, at most ${EXPRESSION_LIMITS.nodes}`);
    total += walk.nodes;
    problems.push(...walk.problems);
  }
  if (total > EXPRESSION_LIMITS.totalNodes) problems.push(`${prefix}: the targets have ${total} expression nodes together, at most ${EXPRESSION_LIMITS.totalNodes}`);
  return problems.slice(0, 20);
}
