import { describe, expect, it } from 'vitest';
import { deviceIdFor, topicIdFor } from '@herald/events';
import { plainTargetKind, topicNameProblem } from './plain-target.ts';
import { resolveAudience, topicCandidates, topicLookupOf } from './targets.ts';

const APNS = 'ab'.repeat(32);
const FCM = 'cX1dYk2:APA91bH-_x9';

describe('a plain target string names one kind, by its form', () => {
  it.each([
    [deviceIdFor('p1', APNS), 'id'],
    [topicIdFor('p1', 'news').toUpperCase(), 'id'],
    [APNS, 'token'],
    ['AB'.repeat(100), 'token'],
    [FCM, 'token'],
    ['crowd', 'topic'],
    ['android-free', 'topic'],
    ['ab'.repeat(31), 'topic'],
    ['abc'.repeat(21), 'topic'],
    ['news: today', 'topic'],
    ['news.fr', 'topic'],
  ] as const)('%s is a %s', (value, kind) => {
    expect(plainTargetKind(value)).toBe(kind);
  });

  it('refuses topic names of an id or a token form, naming the field', () => {
    expect(topicNameProblem('name', 'crowd')).toBeUndefined();
    expect(topicNameProblem('name', APNS)).toBe(
      `name "${APNS}" cannot name a topic: it has the form of a device token (APNs: 64 to 200 hex digits; FCM: letters, digits, "-", "_" with a ":"), which a target string always names as a token`,
    );
    expect(topicNameProblem('topics', FCM)).toMatch(/^topics ".+" cannot name a topic: it has the form of a device token/);
    expect(topicNameProblem('topics', deviceIdFor('p1', APNS))).toMatch(/^topics ".+" cannot name a topic: it has the form of an id \(a UUID\), which a target string always names as a device or topic id$/);
  });
});

describe('resolveAudience reads a plain string as one kind only', () => {
  const topics = [
    { _id: topicIdFor('p1', 'crowd'), project_id: 'p1', name: 'crowd' },
    // Names of these forms are refused now; topics made before stay reachable by {"topic": …} only.
    { _id: topicIdFor('p1', APNS), project_id: 'p1', name: APNS },
    { _id: topicIdFor('p1', 'x'), project_id: 'p1', name: deviceIdFor('p1', 'y') },
  ];
  const lookup = topicLookupOf(topics);

  it('a word names the topic, never a token or a device', () => {
    expect(resolveAudience('p1', ['crowd', 'nothing'], lookup)).toEqual({ topic_ids: [topicIdFor('p1', 'crowd')], device_ids: [], tokens: [], external_ids: [], metadata: [] });
  });

  it('a token names the device holding it, never a topic of that name', () => {
    expect(resolveAudience('p1', [APNS, FCM], lookup)).toEqual({ topic_ids: [], device_ids: [], tokens: [APNS, FCM], external_ids: [], metadata: [] });
    expect(resolveAudience('p1', [{ topic: APNS }], lookup).topic_ids).toEqual([topicIdFor('p1', APNS)]);
    expect(topicCandidates([APNS, 'crowd', { topic: 'x' }])).toEqual(['crowd', 'x']);
  });

  it('an id names the device or the topic with that id, never a token or a topic named like it', () => {
    const crowdId = topicIdFor('p1', 'crowd');
    expect(resolveAudience('p1', [crowdId], lookup)).toEqual({ topic_ids: [crowdId], device_ids: [crowdId], tokens: [], external_ids: [], metadata: [] });
    const deviceId = deviceIdFor('p1', 'y');
    expect(resolveAudience('p1', [deviceId], lookup)).toEqual({ topic_ids: [], device_ids: [deviceId], tokens: [], external_ids: [], metadata: [] });
  });
});
