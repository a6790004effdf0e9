import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import { topicEnds } from '@herald/kafka';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * The audience index is checkpointed with its offsets: a delivery process
 * restarted with its directory reads only what it missed; one whose
 * directory was deleted rebuilds the index from the log. Either way the
 * next campaign reaches exactly its audience.
 */
const DEVICES = 3_000;
let harness: ApiHarness;
let project: { id: string; api_key: string };
/** Device n's token: even ones are iOS devices, whose tokens are hex. */
const cpToken = (n: number) => (n % 2 === 0 ? apnsToken(`cp-${n}`) : `cp-${n}`);

beforeAll(async () => {
  harness = await startApiHarness('index-checkpoint', { delivery: true });
  project = await harness.createProject('checkpoint');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['crowd']);
  const topicId = topicIdFor(project.id, 'crowd');
  const context = { project_id: project.id };
  const events: HeraldEvent[] = Array.from({ length: DEVICES }, (_, n) =>
    createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, cpToken(n)), token: cpToken(n), platform: n % 2 === 0 ? 'ios' : 'android', topic_ids: [topicId] }, context),
  );
  for (let i = 0; i < events.length; i += 1000) await harness.env.producer.publish(events.slice(i, i + 1000));
}, 180_000);
afterAll(async () => {
  await harness?.stop();
});

/** Records this delivery process applied to its index since it started (its own counter). */
async function appliedByThisProcess(): Promise<number> {
  const text = await (await fetch(harness.metricsUrls.delivery!)).text();
  return [...text.matchAll(/^herald_audience_index_records_applied_total\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** Partitions of herald.device-events whose index (as this process's /metrics shows it) is not at the log's end yet. */
async function partitionsBehindEnds(): Promise<number[]> {
  const text = await (await fetch(harness.metricsUrls.delivery!)).text();
  const next = new Map([...text.matchAll(/^herald_audience_index_next_offset\{[^}]*partition="(\d+)"[^}]*\} (\d+)/gm)].map((match) => [Number(match[1]), Number(match[2])]));
  const ends = await topicEnds(harness.env.kafka, TOPICS.deviceEvents);
  return ends.filter((end) => end.high > 0 && (next.get(end.partition) ?? -1) < end.high).map((end) => end.partition);
}

async function campaignTargets(): Promise<number> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'All', body: 'of you', targets: [{ topic: 'crowd' }] } } });
  expect(response.status).toBe(201);
  const id = (response.body!.data as { id: string }).id;
  return waitFor(`notification ${id} sent`, async () => {
    const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: { targeted: number } } | undefined;
    return data?.status === 'sent' ? data.counts.targeted : undefined;
  }, 120_000);
}

describe('the audience index checkpoint', () => {
  it('builds the index from the log the first time', async () => {
    expect(await campaignTargets()).toBe(DEVICES);
    expect(await appliedByThisProcess()).toBeGreaterThanOrEqual(DEVICES);
  }, 180_000);

  it('restarted with its directory, reads only what it missed', async () => {
    const started = Date.now();
    await harness.restartDelivery!('SIGTERM');
    // Ready to fan out from the checkpoint alone: every partition's index is at the log's end with nothing applied.
    await waitFor('every partition restored from its checkpoint', async () => ((await partitionsBehindEnds()).length === 0 ? true : undefined), 60_000);
    process.stdout.write(`index checkpoint test: restarted (drain, start, join) with every partition's index at the log's end in ${Date.now() - started} ms\n`);
    expect(await appliedByThisProcess()).toBe(0);
    expect(await campaignTargets()).toBe(DEVICES);
    process.stdout.write(`index checkpoint test: restarted and fanned out a ${DEVICES}-device campaign in ${Date.now() - started} ms\n`);
    // The campaign's own deactivations would be new records; it had none.
    expect(await appliedByThisProcess()).toBe(0);
  }, 180_000);

  it('with its directory deleted, rebuilds the index from the log (after a kill -9)', async () => {
    await harness.restartDelivery!('SIGKILL', { wipeIndex: true });
    expect(await campaignTargets()).toBe(DEVICES);
    expect(await appliedByThisProcess()).toBeGreaterThanOrEqual(DEVICES);
  }, 240_000);
});
