import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInjectHarness, type InjectHarness } from '@herald/testing';
import { buildApp } from '../../../../build-app.ts';

let harness: InjectHarness;
let key: string;
beforeAll(async () => {
  harness = await startInjectHarness('push-options-route', buildApp);
  key = (await harness.createProject('options')).api_key;
});
afterAll(async () => {
  await harness?.close();
});

const send = (fields: Record<string, unknown>) => harness.request('POST', '/api/v1/notifications', { key, body: { notification: { title: 't', body: 'b', targets: ['news'], ...fields } } });

describe('push options on send', () => {
  it('accepts every field and answers with them in the request', async () => {
    const fields = {
      data: { order: '42' },
      badge: 2,
      sound: 'default',
      ttl: 60,
      priority: 'normal',
      collapse_id: 'score',
      content_available: true,
      mutable_content: true,
      image: 'https://cdn.example.com/a.png',
      category: 'SALE',
      thread_id: 'deals',
      apns: { aps: { 'interruption-level': 'passive' } },
      fcm: { android: { notification: { channelId: 'sales' } } },
    };
    const response = await send(fields);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ data: { status: 'queued', request: fields } });
  });

  it.each([
    ['data with a non-string value', { data: { n: 1 } }, 'notification.data.n must be a string'],
    ['a negative badge', { badge: -1 }, 'notification.badge must be >= 0'],
    ['a fractional badge', { badge: 1.5 }, 'notification.badge must be an integer'],
    ['an empty sound', { sound: '' }, 'notification.sound must not be empty'],
    ['a ttl over 28 days', { ttl: 2_419_201 }, 'notification.ttl must be <= 2419200'],
    ['an unknown priority', { priority: 'urgent' }, 'notification.priority must be one of: high, normal'],
    ['a collapse id over 64 characters', { collapse_id: 'x'.repeat(65) }, 'notification.collapse_id must be at most 64 characters'],
    ['a non-boolean content_available', { content_available: 'yes' }, 'notification.content_available must be a boolean'],
    ['a non-boolean mutable_content', { mutable_content: 1 }, 'notification.mutable_content must be a boolean'],
    ['an image that is not https', { image: 'http://x/a.png' }, 'notification.image must match pattern "^https://"'],
    ['an empty category', { category: '' }, 'notification.category must not be empty'],
    ['an empty thread id', { thread_id: '' }, 'notification.thread_id must not be empty'],
    ['an apns override that is not an object', { apns: 'x' }, 'notification.apns must be an object'],
    ['an fcm override that is not an object', { fcm: [1] }, 'notification.fcm must be an object'],
    ['a null fcm override', { fcm: null }, 'notification.fcm must be an object'],
    ['a reserved data key', { data: { notification_id: 'x' } }, expect.stringMatching(/^notification\.data\.notification_id is a reserved key/)],
    ['a data key FCM reserves', { data: { from: 'y' } }, expect.stringMatching(/^notification\.data\.from is a reserved key/)],
    ['an fcm override that sets the target', { fcm: { topic: 'all' } }, 'notification.fcm.topic may not be set: Herald sends to each device\'s token'],
  ])('422 naming the field for %s', async (_label, fields, message) => {
    const response = await send(fields);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: [message] });
  });

  it('422 when the fields push the payload over 4 KB, naming the provider', async () => {
    const response = await send({ data: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(120)])) });
    expect(response.status).toBe(422);
    expect((response.body as { errors: string[] }).errors).toEqual([
      expect.stringMatching(/^notification must fit in 4096 bytes as an APNs payload/),
      expect.stringMatching(/^notification must fit in 4096 bytes as an FCM message/),
      expect.stringMatching(/^notification must fit in 3993 bytes as a Web Push plaintext/),
      expect.stringMatching(/^notification must fit in 4096 bytes as a Push Kit message/),
    ]);
  });
});
