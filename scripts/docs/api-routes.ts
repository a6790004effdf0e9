// The routes a Markdown reference documents and the routes an OpenAPI
// document serves, as comparable "METHOD /path" strings.

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

/** Routes documented as `### METHOD /path` headings. */
export function documentedRoutes(markdown: string): string[] {
  return [...markdown.matchAll(/^###\s+(GET|PUT|POST|PATCH|DELETE|HEAD|OPTIONS)\s+(\/\S*)\s*$/gm)].map((match) => `${match[1]} ${match[2]}`);
}

/** Every operation of an OpenAPI document's `paths`. */
export function openApiRoutes(document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}
