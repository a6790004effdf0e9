import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '@herald/api';
import { describe, expect, it } from 'vitest';
import { documentedRoutes, openApiRoutes } from './api-routes.ts';

const API_REFERENCE = join(dirname(fileURLToPath(import.meta.url)), '../../docs/reference/api.md');

describe('documentedRoutes and openApiRoutes', () => {
  it('read "### METHOD /path" headings and the operations of each path', () => {
    expect(documentedRoutes('# API\n### GET /a/{id}\ntext GET /b\n### POST /a\n## GET /c\n')).toEqual(['GET /a/{id}', 'POST /a']);
    expect(openApiRoutes({ paths: { '/a/{id}': { get: {}, delete: {}, parameters: [] }, '/a': { post: {} } } })).toEqual(['GET /a/{id}', 'DELETE /a/{id}', 'POST /a']);
  });
});

describe('docs/reference/api.md', () => {
  it('documents every route of the OpenAPI document the API serves, and no other', async () => {
    const documented = documentedRoutes(readFileSync(API_REFERENCE, 'utf8'));
    const served = openApiRoutes(await openApiDocument());
    expect(new Set(documented).size).toBe(documented.length);
    expect(served.length).toBeGreaterThan(20);
    expect({ missingFromTheDocs: served.filter((route) => !documented.includes(route)), notServed: documented.filter((route) => !served.includes(route)) })
      .toEqual({ missingFromTheDocs: [], notServed: [] });
  });
});
