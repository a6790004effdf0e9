import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Every push option, sent through the real pipeline, arrives at the fakes
 * where docs/reference/payload-fields.md says: APNs headers and body, the FCM v1
 * message on the wire (firebase-admin's renaming included).
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('payload-fields', { delivery: true });
  project = await harness.createProject('fields');
  await harness.fakes!.configure(project.id);
  for (const [token, platform] of [[apnsToken('ios-fields'), 'ios'], ['android-fields', 'android']] as const) {
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform } })).status).toBe(201);
  }
  await waitFor('both devices projected', async () => {
    const listed = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (listed.body?.pagination as { count: number } | undefined)?.count === 2;
  });
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

const send = async (notification: Record<string, unknown>) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { targets: [apnsToken('ios-fields'), { token: 'android-fields' }], ...notification } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};

async function arrivals(id: string) {
  const { apns, fcm } = harness.fakes!;
  return waitFor(`notification ${id} at both fakes`, () => {
    const ios = apns.deliveries.find((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id);
    const android = fcm.deliveries.find((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id);
    return ios !== undefined && android !== undefined ? { ios, android } : undefined;
  }, 60_000);
}

describe('push options at the providers', () => {
  it('maps every field to its APNs header or payload key and its FCM field', async () => {
    const before = Math.floor(Date.now() / 1000);
    const id = await send({
      title: 'Sale',
      body: 'Now',
      data: { order: '42' },
      badge: 3,
      sound: 'chime.caf',
      ttl: 3600,
      priority: 'normal',
      collapse_id: 'score',
      mutable_content: true,
      content_available: true,
      image: 'https://cdn.example.com/a.png',
      category: 'SALE',
      thread_id: 'deals',
      apns: { aps: { 'interruption-level': 'time-sensitive' } },
      fcm: { android: { notification: { channelId: 'sales' } } },
    });
    const { ios, android } = await arrivals(id);

    expect(ios.headers).toMatchObject({ 'apns-push-type': 'alert', 'apns-priority': '5', 'apns-collapse-id': 'score' });
    const expiration = Number(ios.headers['apns-expiration']);
    expect(expiration).toBeGreaterThanOrEqual(before + 3600);
    expect(expiration).toBeLessThanOrEqual(before + 3600 + 120);
    expect(ios.payload).toEqual({
      order: '42',
      aps: {
        alert: { title: 'Sale', body: 'Now' },
        badge: 3,
        sound: 'chime.caf',
        'thread-id': 'deals',
        category: 'SALE',
        'content-available': 1,
        'mutable-content': 1,
        'interruption-level': 'time-sensitive',
      },
      notification_id: id,
      project_id: project.id,
      image: 'https://cdn.example.com/a.png',
    });

    expect(android.message).toMatchObject({
      token: 'android-fields',
      notification: { title: 'Sale', body: 'Now', image: 'https://cdn.example.com/a.png' },
      data: { order: '42', notification_id: id, project_id: project.id },
      android: {
        priority: 'normal',
        ttl: '3600s',
        collapse_key: 'score',
        notification: { tag: 'deals', sound: 'chime.caf', notification_count: 3, click_action: 'SALE', channel_id: 'sales' },
      },
    });
  });

  it('sends a silent push as APNs background (priority 5) and an FCM data-only message', async () => {
    const id = await send({ title: '', body: '', content_available: true, data: { sync: 'inbox' } });
    const { ios, android } = await arrivals(id);
    expect(ios.headers).toMatchObject({ 'apns-push-type': 'background', 'apns-priority': '5' });
    expect(ios.payload).toEqual({ sync: 'inbox', aps: { 'content-available': 1 }, notification_id: id, project_id: project.id });
    expect(android.message).not.toHaveProperty('notification');
    expect(android.message.data).toEqual({ sync: 'inbox', notification_id: id, project_id: project.id });
  });
});
