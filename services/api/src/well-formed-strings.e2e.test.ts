import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from '@herald/testing';

/**
 * Strings that are not well-formed UTF-16 (issue 44, item 4): a lone
 * surrogate in any string field is refused with 400/422 naming the field,
 * never a 500, and a send carrying one is never accepted (it used to be
 * accepted, then dead-lettered by the fan-out, and stayed `queued`).
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('well-formed');
  project = await harness.createProject('well-formed');
}, 180_000);
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const SURROGATE_RULE = 'must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)';

describe('the reported reproductions', () => {
  it('a device token with a lone low surrogate is a 400 naming token', async () => {
    const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: '\udc00abc' } });
    expect(response).toEqual({ status: 400, body: { errors: [`token ${SURROGATE_RULE}`] } });
  });

  it('a topic name with a lone high surrogate is a 400 naming name', async () => {
    const response = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'a\ud800' } });
    expect(response).toEqual({ status: 400, body: { errors: [`name ${SURROGATE_RULE}`] } });
  });

  it('a send to target "a\\ud800" is refused (422 naming the target), so nothing is queued', async () => {
    const response = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { title: 'Hi', body: 'there', targets: ['a\ud800'] } },
    });
    expect(response).toEqual({ status: 422, body: { errors: [`notification.targets[0] ${SURROGATE_RULE}`] } });
    const listed = await harness.request('GET', '/api/v1/notifications', { key: project.api_key });
    expect((listed.body as { data: unknown[] }).data).toEqual([]);
  });

  it('a well-formed surrogate pair (an emoji) is an ordinary character', async () => {
    const response = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'news-😀' } });
    expect(response.status).toBe(201);
  });
});

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
};
type Step = string | number;
type Operation = { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };

/** Every place a JSON schema admits a string, as a path of keys and indices (bounded: schemas may nest deeply or refer to themselves). */
function stringPaths(schema: Schema | undefined, at: Step[] = [], depth = 0): Step[][] {
  if (schema === undefined || depth > 6) return [];
  const types = [schema.type ?? []].flat();
  const found: Step[][] = types.includes('string') ? [at] : [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) found.push(...stringPaths(child, [...at, key], depth + 1));
  if (schema.items !== undefined) found.push(...stringPaths(schema.items, [...at, 0], depth + 1));
  if (typeof schema.additionalProperties === 'object') found.push(...stringPaths(schema.additionalProperties, [...at, 'any_key'], depth + 1));
  for (const child of Object.values(schema.patternProperties ?? {})) found.push(...stringPaths(child, [...at, 'any_key'], depth + 1));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...stringPaths(branch, at, depth + 1));
  return found;
}

/** A body holding `value` at `path` and nothing else (the check runs before the schema's). */
function bodyWith(path: Step[], value: string): unknown {
  let body: unknown = value;
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const step = path[index]!;
    body = typeof step === 'number' ? [body] : { [step]: body };
  }
  return body;
}

/** `notification.targets[0]`, as the API names a body field. */
const fieldName = (path: Step[]) => path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name === '' ? step : `${name}.${step}`), '');

const concrete = (path: string, value = 'some-id') => path.replace(/\{[^}]+\}/g, value);

describe('a lone surrogate in every string field of every route of the OpenAPI document', () => {
  it('every JSON body string field: 400 or 422 naming the field, never a 5xx', async () => {
    const document = (await harness.request('GET', '/docs/json')).body as { paths: Record<string, Record<string, Operation>> };
    const answers: string[] = [];
    let tried = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        const unique = new Map(stringPaths(schema).map((steps) => [fieldName(steps), steps]));
        for (const [name, steps] of unique) {
          for (const surrogate of ['\ud800', 'x\udfffy']) {
            tried += 1;
            const response = await harness.request(method.toUpperCase(), concrete(path), { key: project.api_key, body: bodyWith(steps, surrogate) });
            const expected = `${name === '' ? 'body' : name} ${SURROGATE_RULE}`;
            const ok = (response.status === 400 || response.status === 422) && (response.body?.errors as string[] | undefined)?.includes(expected) === true;
            if (!ok) answers.push(`${method.toUpperCase()} ${path} ${name}: ${response.status} ${JSON.stringify(response.body)}`);
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(50);
    expect(answers).toEqual([]);
  }, 180_000);

  it('every path, query and header parameter: a URL or header cannot carry a lone surrogate, and its closest spellings (ill-formed UTF-8) are never a 5xx', async () => {
    const document = (await harness.request('GET', '/docs/json')).body as { paths: Record<string, Record<string, Operation>> };
    // A lone surrogate as UTF-8 would spell it (CESU-8), a stray continuation byte, an overlong form, a byte UTF-8 never uses.
    const spellings = ['%ED%A0%80', 'a%ED%B3%BFb', '%80', '%C0%AF', '%FF'];
    const failures: string[] = [];
    let tried = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      // An event stream whose parameters pass never ends (fuzz.ts leaves it out too); event-stream.e2e.test.ts covers its refusals.
      if (path === '/api/v1/events') continue;
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          for (const spelling of spellings) {
            let url = concrete(path);
            const headers: Record<string, string> = {};
            if (parameter.in === 'path') url = path.replace(`{${parameter.name}}`, spelling).replace(/\{[^}]+\}/g, 'some-id');
            else if (parameter.in === 'query') url = `${url}?${parameter.name}=${spelling}`;
            else if (parameter.in === 'header') headers[parameter.name] = spelling.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
            else continue;
            tried += 1;
            const response = await harness.request(method.toUpperCase(), url, { key: project.api_key, headers });
            if (response.status >= 500) failures.push(`${method.toUpperCase()} ${url} (${parameter.in} ${parameter.name}): ${response.status} ${JSON.stringify(response.body)}`);
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 180_000);
});
