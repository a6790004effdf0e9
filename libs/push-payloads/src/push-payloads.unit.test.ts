import { describe, expect, it } from 'vitest';
import { apnsPayload, apnsPayloadBytes, fcmMessage, fcmPayloadBytes, PAYLOAD_LIMIT_BYTES, payloadProblems, type PushMessage } from './push-payloads.ts';

const message: PushMessage = {
  notification_id: '01a1fe1a-5819-74b9-ad85-d7ab33a373da',
  project_id: 'project-1',
  title: 'Hello',
  body: 'World',
  link_to: 'app://inbox/42',
  group: 'inbox',
};

describe('apnsPayload', () => {
  it('puts the alert and thread id in aps and the ids beside it', () => {
    expect(apnsPayload(message)).toEqual({
      aps: { alert: { title: 'Hello', body: 'World' }, 'thread-id': 'inbox' },
      notification_id: message.notification_id,
      project_id: 'project-1',
      link_to: 'app://inbox/42',
    });
  });

  it('leaves out what was not given', () => {
    expect(apnsPayload({ ...message, link_to: undefined, group: undefined })).toEqual({
      aps: { alert: { title: 'Hello', body: 'World' } },
      notification_id: message.notification_id,
      project_id: 'project-1',
    });
  });
});

describe('fcmMessage', () => {
  it('carries the ids as string data and the group as the Android tag', () => {
    expect(fcmMessage(message, 'tok')).toEqual({
      token: 'tok',
      notification: { title: 'Hello', body: 'World' },
      data: { notification_id: message.notification_id, project_id: 'project-1', link_to: 'app://inbox/42' },
      android: { notification: { tag: 'inbox' } },
    });
  });
});

describe('payloadProblems', () => {
  it('accepts a payload of exactly the limit and refuses one byte more', () => {
    const empty = { ...message, body: '' };
    const base = Math.max(apnsPayloadBytes(empty), fcmPayloadBytes(empty));
    const fits = { ...message, body: 'x'.repeat(PAYLOAD_LIMIT_BYTES - base) };
    expect(Math.max(apnsPayloadBytes(fits), fcmPayloadBytes(fits))).toBe(PAYLOAD_LIMIT_BYTES);
    expect(payloadProblems(fits)).toEqual([]);
    expect(payloadProblems({ ...fits, body: `${fits.body}x` })).toHaveLength(1);
  });

  it('counts bytes, not characters', () => {
    expect(payloadProblems({ ...message, body: 'é'.repeat(2100) })).toHaveLength(1);
  });
});
