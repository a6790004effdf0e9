/**
 * Strings that are not well-formed UTF-16 (a lone surrogate, which JSON's
 * `\ud800` escape can carry) cannot be encoded as UTF-8: ids derived from
 * them, Kafka records, store documents and provider payloads would each
 * fail or mangle them differently. They are refused at the edge, naming the
 * field, before any schema or service sees them.
 */

/** At most this many fields are named in one answer (a body of 10,000 bad strings costs no more). */
export const MAX_ILL_FORMED_REPORTED = 20;

/** `notification.targets[0]` from a parent path and a key (prefixed for query and params: `name`). */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * The paths of every string (value or object key) in `value` that is not
 * well-formed UTF-16, up to `MAX_ILL_FORMED_REPORTED`: `notification.title`,
 * `token`, `data key "\ud800"`. Walks without recursion, so a deeply nested
 * body (JSON.parse builds any depth) cannot overflow the stack.
 */
export function illFormedPaths(value: unknown, root = ''): string[] {
  const found: string[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: root }];
  while (stack.length > 0 && found.length < MAX_ILL_FORMED_REPORTED) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (!current.isWellFormed()) found.push(path === '' ? 'body' : path);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], path: childPath(path, index) });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        if (!key.isWellFormed()) found.push(`${path === '' ? 'body' : path} key ${JSON.stringify(key)}`);
        else stack.push({ value: child, path: childPath(path, key) });
      }
    }
  }
  return found.slice(0, MAX_ILL_FORMED_REPORTED);
}

/** The request parts a route reads, as fastify parsed them. */
export interface RequestParts {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * One `{"errors": [...]}` message per ill-formed string in a request, each
 * naming its field: body fields as the schema errors name them
 * (`notification.targets[0]`), query and path parameters by name, headers
 * as `header <name>`.
 */
export function illFormedMessages(parts: RequestParts): string[] {
  const paths = [
    ...illFormedPaths(parts.params),
    ...illFormedPaths(parts.query),
    ...Object.entries(parts.headers ?? {}).flatMap(([name, value]) => illFormedPaths(value, `header ${name}`)),
    ...illFormedPaths(parts.body),
  ].slice(0, MAX_ILL_FORMED_REPORTED);
  return paths.map((path) => `${path} must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)`);
}
