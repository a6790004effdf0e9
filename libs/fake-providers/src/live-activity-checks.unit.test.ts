import { describe, expect, it } from 'vitest';
import { checkLiveActivityPush, liveActivityBundleId } from './live-activity-checks.ts';

const TOPIC = 'com.example.app.push-type.liveactivity';
const body = (aps: Record<string, unknown>) => Buffer.from(JSON.stringify({ aps }));
const update = { timestamp: 100, event: 'update', 'content-state': { eta: 3 } };

describe('liveActivityBundleId', () => {
  it('strips Apple’s suffix, and names nothing without it', () => {
    expect(liveActivityBundleId(TOPIC)).toBe('com.example.app');
    expect(liveActivityBundleId('com.example.app')).toBeUndefined();
    expect(liveActivityBundleId('.push-type.liveactivity')).toBeUndefined();
  });
});

describe('checkLiveActivityPush', () => {
  it('accepts an update with a timestamp past the last one, and a start with its attributes', () => {
    expect(checkLiveActivityPush(TOPIC, body(update), 99)).toEqual({ ok: true, timestamp: 100 });
    expect(checkLiveActivityPush(TOPIC, body({ ...update, event: 'start', 'attributes-type': 'A', attributes: {} }), undefined)).toEqual({ ok: true, timestamp: 100 });
    expect(checkLiveActivityPush(TOPIC, body({ timestamp: 101, event: 'end' }), 100)).toEqual({ ok: true, timestamp: 101 });
  });

  it.each([
    ['the bare bundle id as topic', 'com.example.app', body(update), undefined, 'BadTopic'],
    ['a body that is not JSON', TOPIC, Buffer.from('{'), undefined, 'LiveActivityPayloadNotJson'],
    ['no aps', TOPIC, Buffer.from('{}'), undefined, 'LiveActivityMissingAps'],
    ['no timestamp', TOPIC, body({ event: 'update', 'content-state': {} }), undefined, 'LiveActivityMissingTimestamp'],
    ['a timestamp in milliseconds as text', TOPIC, body({ ...update, timestamp: '100' }), undefined, 'LiveActivityMissingTimestamp'],
    ['an unknown event', TOPIC, body({ ...update, event: 'pause' }), undefined, 'LiveActivityBadEvent'],
    ['an update without content-state', TOPIC, body({ timestamp: 100, event: 'update' }), undefined, 'LiveActivityMissingContentState'],
    ['a start without attributes', TOPIC, body({ ...update, event: 'start', 'attributes-type': 'A' }), undefined, 'LiveActivityMissingAttributes'],
    ['the same timestamp again (a retried update)', TOPIC, body(update), 100, 'LiveActivityTimestampNotIncreasing'],
    ['an older timestamp', TOPIC, body(update), 150, 'LiveActivityTimestampNotIncreasing'],
  ] as const)('refuses %s', (_name, topic, payload, last, reason) => {
    expect(checkLiveActivityPush(topic, payload, last)).toEqual({ ok: false, reason });
  });
});
