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
    expect((await harness.request('GET', '/api/v1/topics')).status).toBe(401);
    expect(await harness.request('GET', '/api/v1/topics?page=0', { key: project.api_key })).toEqual({ status: 400, body: { errors: ['page must be >= 1'] } });
  });
});
