import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, startApiHarness, type ApiHarness } from '@herald/testing';
import { firstSend } from './first-send.ts';
import { createHeraldClient } from './index.ts';

/** The README's example, run as an integrator would: over HTTP, against the API, the projector and delivery (fake APNs). */
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('client', { delivery: true });
  project = await harness.createProject('client');
  await harness.fakes!.configure(project.id);
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

describe('@herald/client', () => {
  it('registers a device, sends to it and follows the notification to its receipt', async () => {
    const herald = createHeraldClient({ baseUrl: harness.baseUrl, apiKey: project.api_key });
    const token = apnsToken('client-readme');
    const receipts = await firstSend(herald, project.id, token);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ provider: 'apns', outcome: 'delivered', reason: null });
    expect(harness.fakes!.apns.deliveries.map((delivery) => delivery.token)).toEqual([token]);
  }, 120_000);

  it('answers a refused call with the API messages, not an exception', async () => {
    const herald = createHeraldClient({ baseUrl: harness.baseUrl, apiKey: project.api_key });
    const refused = await herald.POST('/api/v1/notifications', { body: { notification: { title: 'T', body: 'B', targets: [] } } });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.errors.some((message) => message.includes('targets'))).toBe(true);
  });
});
