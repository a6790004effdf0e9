import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHeraldClient, errorMessages } from './index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A fetch that records the request and answers with `status` and `body`. */
function answering(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = (request: Request) => {
    requests.push(request);
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  };
  return { requests, fetch };
}

describe('createHeraldClient', () => {
  it('calls the path under the base URL with the bearer key and a JSON body, and returns the data', async () => {
    const { requests, fetch } = answering(201, { data: { id: 'n1', status: 'queued' } });
    const herald = createHeraldClient({ baseUrl: 'https://push.example.com/', apiKey: 'hk_live_x', fetch });
    const sent = await herald.POST('/api/v1/notifications', { body: { notification: { title: 'T', body: 'B', targets: ['news'] } } });
    expect(sent.data).toEqual({ data: { id: 'n1', status: 'queued' } });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('https://push.example.com/api/v1/notifications');
    expect(request?.headers.get('authorization')).toBe('Bearer hk_live_x');
    expect(await request?.json()).toEqual({ notification: { title: 'T', body: 'B', targets: ['news'] } });
  });

  it('sends no authorization header without a key, and hands the errors body back', async () => {
    const { requests, fetch } = answering(400, { errors: ['token must NOT have fewer than 1 characters'] });
    const herald = createHeraldClient({ baseUrl: 'http://127.0.0.1:3000', fetch });
    const registered = await herald.POST('/api/v1/devices', { body: { project_id: 'p', token: '', platform: 'ios' } });
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(registered.data).toBeUndefined();
    expect(errorMessages(registered.error, registered.response.status)).toEqual(['token must NOT have fewer than 1 characters']);
    expect(errorMessages(undefined, 502)).toEqual(['the API answered 502']);
  });
});

describe('the README example', () => {
  it('is src/first-send.ts between its markers, verbatim', async () => {
    const between = (text: string) => /\/\/ README example start\n([\s\S]*?)\/\/ README example end/.exec(text)?.[1];
    const source = between(await readFile(join(ROOT, 'src/first-send.ts'), 'utf8'));
    const readme = /```ts\n([\s\S]*?)```/g;
    const blocks = [...(await readFile(join(ROOT, 'README.md'), 'utf8')).matchAll(readme)].map((match) => match[1]);
    expect(source).toBeDefined();
    expect(blocks).toContain(source);
  });
});
