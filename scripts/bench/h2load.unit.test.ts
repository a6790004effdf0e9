import { describe, expect, it } from 'vitest';
import { h2loadArgs, mergeSegments, nextSegment, parseH2loadOutput } from './h2load.ts';

const OUTPUT = `starting benchmark...
spawning thread #0: 4 total client(s). Timing-based test with 0s of warm-up time and 1s of main duration for measurements.
Application protocol: h2

finished in 1.00s, 14640.00 req/s, 564.22KB/s
requests: 14640 total, 14660 started, 14640 done, 14630 succeeded, 10 failed, 0 errored, 0 timeout
status codes: 14630 2xx, 0 3xx, 10 4xx, 0 5xx
traffic: 564.22KB (577762) total, 435.29KB (445732) headers (space savings 64.60%), 0B (0) data
req/s           :    7292.41     7299.55     7295.98        5.05   100.00%
`;

describe('parseH2loadOutput', () => {
  it("reads h2load's own summary: time, req/s, request counts and status classes", () => {
    expect(parseH2loadOutput(OUTPUT)).toEqual({
      seconds: 1,
      reqPerS: 14640,
      total: 14640,
      started: 14660,
      done: 14640,
      succeeded: 14630,
      failed: 10,
      errored: 0,
      timeout: 0,
      statuses: { '2xx': 14630, '3xx': 0, '4xx': 10, '5xx': 0 },
    });
  });

  it('converts ms durations and names a missing line', () => {
    expect(parseH2loadOutput(OUTPUT.replace('finished in 1.00s', 'finished in 152.20ms')).seconds).toBeCloseTo(0.1522, 6);
    expect(() => parseH2loadOutput('starting benchmark...\n')).toThrow(/no "finished in" line/);
    expect(() => parseH2loadOutput(OUTPUT.replace(/^status codes.*$/m, ''))).toThrow(/no "status codes:" line/);
  });
});

describe('segments', () => {
  it('bounds the rest by time when the first second’s rate stays within the requests left', () => {
    expect(nextSegment({ count: 200_000, seconds: 10 }, { done: 10_000, seconds: 1 })).toEqual({ seconds: 9 });
    expect(nextSegment({ count: 200_000, seconds: 5 }, { done: 10_000, seconds: 1.01 })).toEqual({ seconds: 3.99 });
  });

  it('bounds it by requests when the rate would pass them first', () => {
    expect(nextSegment({ count: 200_000, seconds: 10 }, { done: 50_000, seconds: 1 })).toEqual({ requests: 150_000 });
  });

  it('stops when either bound is reached', () => {
    expect(nextSegment({ count: 5_000, seconds: 10 }, { done: 14_000, seconds: 1 })).toBeUndefined();
    expect(nextSegment({ count: 200_000, seconds: 1 }, { done: 10_000, seconds: 1.02 })).toBeUndefined();
  });

  it('adds segments up: ok is the 2xx answers, the rate ok per second', () => {
    const first = parseH2loadOutput(OUTPUT);
    const second = { ...first, seconds: 3, done: 45_000, statuses: { '2xx': 45_000, '3xx': 0, '4xx': 0, '5xx': 0 } };
    const merged = mergeSegments([first, second], { cpuSeconds: 2.5, peakRssBytes: 1e7 });
    expect(merged).toMatchObject({ requests: 59_640, ok: 59_630, failed: 10, seconds: 4, statuses: { '2xx': 59_630, '4xx': 10 }, cpuSeconds: 2.5 });
    expect(merged.rate).toBeCloseTo(59_630 / 4, 6);
  });
});

describe('h2loadArgs', () => {
  it('sends valid APNs requests: provider token, topic, push type, POST body, one device path', () => {
    const args = h2loadArgs({ url: 'https://127.0.0.1:4433', authorization: 'bearer x.y.z', topic: 'com.example', sessions: 4, streams: 100 }, '/tmp/body.json', { seconds: 9 }, 'ab');
    expect(args).toEqual([
      '-D', '9000ms', '-t', '1', '-c', '4', '-m', '100', '-d', '/tmp/body.json',
      '-H', 'authorization: bearer x.y.z', '-H', 'apns-topic: com.example', '-H', 'apns-push-type: alert', '-H', 'apns-priority: 10',
      'https://127.0.0.1:4433/3/device/ab',
    ]);
    expect(h2loadArgs({ url: 'https://h', authorization: 'a', topic: 't', sessions: 1, streams: 1 }, 'b', { requests: 500 }, 't').slice(0, 2)).toEqual(['-n', '500']);
  });
});
