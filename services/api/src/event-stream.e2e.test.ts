import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { withLogAdmin } from '@herald/kafka';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/** A project's device `one` is an iOS device (its token hex), `two` an Android one. */
const tokenOf = (projectId: string, name: 'one' | 'two') => (name === 'one' ? apnsToken(`${projectId}-one`) : `${projectId}-two`);

/**
 * GET /api/v1/events over the real stack: a stream resumed with
 * Last-Event-ID after a disconnect misses nothing and repeats nothing
 * (checked against a stream that stayed connected), shows only its project's
 * events, refuses garbage ids and too many streams, and leaves no consumer
 * group behind.
 */
interface StreamEvent {
  sseId: string;
  type: string;
  event: { id: string; type: string; project_id: string; data: { notification_id?: string } };
}

interface Stream {
  events: StreamEvent[];
  opened: Promise<void>;
  /** Set once the server ended the stream (the body ended). */
  ended: () => boolean;
  close(): void;
}

let harness: ApiHarness;
let projectA: { id: string; api_key: string };
let projectB: { id: string; api_key: string };

/** A minimal SSE client over fetch: collects every message with its id. */
function openStream(key: string, lastEventId?: string): Stream {
  const events: StreamEvent[] = [];
  const abort = new AbortController();
  let ended = false;
  let opened: () => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const openedPromise = new Promise<void>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  void (async () => {
    const response = await fetch(`${harness.baseUrl}/api/v1/events`, {
      headers: { authorization: `Bearer ${key}`, ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
      signal: abort.signal,
    });
    if (response.status !== 200) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    opened();
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(frame.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        if (fields.id !== undefined) events.push({ sseId: fields.id, type: fields.event!, event: JSON.parse(fields.data!) as StreamEvent['event'] });
      }
    }
    ended = true;
  })().catch((error: unknown) => {
    ended = true;
    if (!abort.signal.aborted) failed(error);
  });
  return { events, opened: openedPromise, ended: () => ended, close: () => abort.abort() };
}

/** Sends to these tokens (typed: the Android test token has no FCM form, so as a plain string it would name a topic). */
const send = async (project: { api_key: string }, tokens: string[]) => {
  const targets = tokens.map((token) => ({ token }));
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'x', targets } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const reportedFor = (stream: Stream, id: string) => stream.events.some((item) => item.type === 'DeliveryReported' && item.event.data.notification_id === id);

beforeAll(async () => {
  harness = await startApiHarness('event-stream', { delivery: true, apiEnv: { EVENT_STREAMS_PER_PROJECT: '3' } });
  projectA = await harness.createProject('stream-a');
  projectB = await harness.createProject('stream-b');
  for (const project of [projectA, projectB]) {
    await harness.fakes!.configure(project.id);
    for (const token of ['one', 'two'] as const) {
      expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: tokenOf(project.id, token), platform: token === 'one' ? 'ios' : 'android' } })).status).toBe(201);
    }
  }
  await waitFor('devices projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: projectA.api_key })).body?.data as unknown[]).length === 2);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('GET /api/v1/events', () => {
  it('resumes after a disconnect with Last-Event-ID: nothing missed, nothing twice, only its project', async () => {
    const witness = openStream(projectA.api_key);
    const first = openStream(projectA.api_key);
    await Promise.all([witness.opened, first.opened]);

    const n1 = await send(projectA, [tokenOf(projectA.id, 'one'), tokenOf(projectA.id, 'two')]);
    await waitFor('the first notification reported on the stream', () => first.events.filter((item) => item.type === 'DeliveryReported').length === 2, 60_000);
    first.close();
    const lastId = first.events.at(-1)!.sseId;

    // While it is away: more of its project's events, and another project's.
    const n2 = await send(projectA, [tokenOf(projectA.id, 'one'), tokenOf(projectA.id, 'two')]);
    const other = await send(projectB, [tokenOf(projectB.id, 'one')]);
    await waitFor('the witness saw the second notification reported', () => witness.events.filter((item) => item.type === 'DeliveryReported' && item.event.data.notification_id === n2).length === 2, 60_000);

    const resumed = openStream(projectA.api_key, lastId);
    await resumed.opened;
    await waitFor('the resumed stream caught up with the witness', () => first.events.length + resumed.events.length >= witness.events.length, 60_000);
    // A moment for anything extra to show up (a repeat would arrive with the catch-up, not later).
    const n3 = await send(projectA, [tokenOf(projectA.id, 'one')]);
    await waitFor('both streams saw the third notification reported', () => reportedFor(resumed, n3) && reportedFor(witness, n3), 60_000);
    resumed.close();
    witness.close();

    const ids = (stream: Stream) => stream.events.map((item) => item.event.id);
    const seen = [...ids(first), ...ids(resumed)];
    expect(new Set(seen).size, 'no event twice').toBe(seen.length);
    const witnessed = new Set(ids(witness));
    expect(new Set(seen)).toEqual(witnessed);
    expect(reportedFor(first, n1) && reportedFor(resumed, n2)).toBe(true);
    expect([...first.events, ...resumed.events].every((item) => item.event.project_id === projectA.id)).toBe(true);
    expect([...first.events, ...resumed.events].some((item) => item.event.data.notification_id === other)).toBe(false);
    expect(new Set(witness.events.map((item) => item.type))).toEqual(new Set(['NotificationRequested', 'NotificationDispatched', 'DeliveryReported']));
  }, 240_000);

  it('refuses a garbage Last-Event-ID, unknown types and a stream too many; leaves no consumer group behind', async () => {
    const get = (headers: Record<string, string>, query = '') => harness.request('GET', `/api/v1/events${query}`, { key: projectB.api_key, headers });
    expect(await get({ 'last-event-id': 'not-an-id' })).toEqual({ status: 400, body: { errors: [expect.stringContaining('Last-Event-ID')] } });
    expect(await get({ 'last-event-id': `v1.${Buffer.from('{"herald.secrets":{"0":1}}').toString('base64url')}` })).toMatchObject({ status: 400 });
    // An empty position map read every project's retained log from its start (issue 17): it names no position of this stream.
    expect(await get({ 'last-event-id': `v1.${Buffer.from('{}').toString('base64url')}` })).toEqual({ status: 400, body: { errors: [expect.stringContaining('Last-Event-ID')] } });
    expect(await get({}, '?types=DeliveryReported,Nope')).toEqual({ status: 400, body: { errors: [expect.stringContaining('types')] } });
    expect((await harness.request('GET', '/api/v1/events')).status).toBe(401);

    const streams = [openStream(projectB.api_key), openStream(projectB.api_key), openStream(projectB.api_key)];
    await Promise.all(streams.map((stream) => stream.opened));
    const refused = await get({});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [expect.stringContaining('event streams')] });
    for (const stream of streams) stream.close();
    // Closed streams free their slots and their throwaway consumer groups.
    await waitFor('the stream slots freed', async () => {
      const again = openStream(projectB.api_key);
      try {
        await again.opened;
        return true;
      } catch {
        return false;
      } finally {
        again.close();
      }
    }, 30_000);
    await waitFor('no stream log-reader consumer group left', () =>
      withLogAdmin(harness.env.kafka, async (admin) => (await admin.groups()).filter((group) => group.startsWith(harness.env.kafka.group('herald.log-reader.stream.'))).length === 0),
    30_000);
  }, 120_000);

  it("accepts a resume id only from the stream of the project that was given it, unaltered", async () => {
    const stream = openStream(projectA.api_key);
    await stream.opened;
    const n = await send(projectA, [tokenOf(projectA.id, 'one')]);
    await waitFor('an event on the stream', () => reportedFor(stream, n), 60_000);
    stream.close();
    const id = stream.events.at(-1)!.sseId;
    const resume = (key: string, lastEventId: string) => harness.request('GET', '/api/v1/events', { key, headers: { 'last-event-id': lastEventId } });
    expect(await resume(projectB.api_key, id)).toEqual({ status: 400, body: { errors: [expect.stringContaining('Last-Event-ID')] } });
    const [payload, signature] = id.slice('v2.'.length).split('.');
    const earlier = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, Record<string, number>>;
    for (const partitions of Object.values(earlier)) for (const partition of Object.keys(partitions)) partitions[partition] = 0;
    expect(await resume(projectA.api_key, `v2.${Buffer.from(JSON.stringify(earlier)).toString('base64url')}.${signature!}`)).toMatchObject({ status: 400 });
  }, 120_000);

  it('a client that goes away while its stream is being set up frees its slot and reader', async () => {
    const url = new URL(harness.baseUrl);
    // More resets than the project may hold streams (3): each leaked slot would be held for EVENT_STREAM_MAX_MS.
    const resets = [0, 5, 5, 20, 50, 100].map(
      (afterMs) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(url.port), url.hostname, () => {
            socket.write(`GET /api/v1/events HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${projectB.api_key}\r\n\r\n`);
            setTimeout(() => socket.resetAndDestroy(), afterMs);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => undefined);
        }),
    );
    await Promise.all(resets);
    await waitFor('no stream slot held', async () => /^herald_event_streams_open\{[^}]*\} 0$/m.test(await (await fetch(harness.metricsUrls.api!)).text()), 10_000);
    await waitFor('three streams open at once again', async () => {
      const streams = [openStream(projectB.api_key), openStream(projectB.api_key), openStream(projectB.api_key)];
      try {
        await Promise.all(streams.map((stream) => stream.opened));
        return true;
      } catch {
        return false;
      } finally {
        for (const stream of streams) stream.close();
      }
    }, 15_000);
    await waitFor('no stream log-reader consumer group left', () =>
      withLogAdmin(harness.env.kafka, async (admin) => (await admin.groups()).filter((group) => group.startsWith(harness.env.kafka.group('herald.log-reader.stream.'))).length === 0),
    30_000);
  }, 120_000);

  it('revoking a key ends its open streams within seconds', async () => {
    const { key_id: keyId, api_key: apiKey } = JSON.parse(await harness.herald('keys', 'issue', projectA.id, '--json')) as { key_id: string; api_key: string };
    const stream = openStream(apiKey);
    await stream.opened;
    await harness.herald('keys', 'revoke', keyId);
    await waitFor('the stream ended after the revocation', () => stream.ended(), 10_000);
    expect((await harness.request('GET', '/api/v1/topics', { key: apiKey })).status).toBe(401);
    stream.close();
  }, 60_000);
});
