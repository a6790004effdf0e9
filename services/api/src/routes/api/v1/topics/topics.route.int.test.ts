import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInjectHarness, type InjectHarness } from '@herald/testing';
import { buildApp } from '../../../../build-app.ts';

let harness: InjectHarness;
beforeAll(async () => {
  harness = await startInjectHarness('topics-route', buildApp);
});
afterAll(async () => {
  await harness?.close();
});

describe('topic routes', () => {
  it('refuses bad input and missing keys, naming the field', async () => {
    const project = await harness.createProject('topic-errors');
    expect(await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: {} })).toEqual({ status: 400, body: { errors: ['name is required'] } });
    expect(await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: '' } })).toEqual({ status: 400, body: { errors: ['name must not be empty'] } });
    expect((await harness.request('POST', '/api/v1/topics', { body: { name: 'x' } })).status).toBe(401);
    // A name a plain target string reads as a device (docs/guides/targets.md).
    const token = 'ab'.repeat(32);
    expect(await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: token } })).toEqual({
      status: 422,
      body: { errors: [`name "${token}" cannot name a topic: it has the form of a device token (APNs: 64 to 200 hex digits; FCM: letters, digits, "-", "_" with a ":"), which a target string always names as a token`] },
    });
    expect((await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: '0190a3b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b' } })).status).toBe(422);
    expect((await harness.request('GET', '/api/v1/topics')).status).toBe(401);
    expect(await harness.request('GET', '/api/v1/topics?page=0', { key: project.api_key })).toEqual({ status: 400, body: { errors: ['page must be >= 1'] } });
  });
});
