import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { mendRequestSignal } from './request-signal.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server with a handler deadline (as the API has) whose one route records what its signal did. */
async function server(mend: boolean, handlerMs: number) {
  const seen: Array<{ abortedWhileHandling: boolean; abortedAfter?: boolean }> = [];
  const disconnects: string[] = [];
  app = Fastify({ handlerTimeout: 5_000 });
  if (mend) mendRequestSignal(app);
  app.post('/work', async (request) => {
    const { signal } = request;
    signal.addEventListener('abort', () => disconnects.push(String((signal.reason as Error | undefined)?.name)));
    await sleep(handlerMs);
    seen.push({ abortedWhileHandling: signal.aborted });
    return { ok: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, seen, disconnects };
}

const post = (port: number) =>
  fetch(`http://127.0.0.1:${port}/work`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hello: 'world' }) });

describe('request.signal with a handler deadline', () => {
  it('is not aborted while a POST is handled (fastify aborts it once the body is read, building a DOMException per request)', async () => {
    const { port, seen, disconnects } = await server(true, 20);
    for (let index = 0; index < 3; index += 1) expect((await post(port)).status).toBe(200);
    expect(seen).toEqual([{ abortedWhileHandling: false }, { abortedWhileHandling: false }, { abortedWhileHandling: false }]);
    expect(disconnects).toEqual([]);
  });

  it('without the mend, fastify 5.12 aborts it on every POST (when an upgrade fixes this, the mend can go)', async () => {
    const { port, seen } = await server(false, 20);
    expect((await post(port)).status).toBe(200);
    expect(seen).toEqual([{ abortedWhileHandling: true }]);
  });

  it('is aborted when the client goes away before the answer', async () => {
    const { port, seen, disconnects } = await server(true, 300);
    const body = JSON.stringify({ hello: 'world' });
    const client = httpRequest({ host: '127.0.0.1', port, path: '/work', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    client.on('error', () => undefined);
    client.end(body);
    await sleep(100);
    client.destroy();
    for (let waited = 0; seen.length === 0 && waited < 3_000; waited += 50) await sleep(50);
    expect(disconnects).toEqual(['AbortError']);
    expect(seen).toEqual([{ abortedWhileHandling: true }]);
  });
});
