import { describe, expect, it } from 'vitest';
import { liveActivityCounts, liveActivityProblems, segmentPaths } from './live-activity-send.ts';

const start = { event: 'start' as const, targets: [{ device_id: 'd' }], attributes_type: 'A', attributes: {}, content_state: { a: 1 }, alert: { title: 't', body: 'b' } };

describe('liveActivityProblems', () => {
  it('takes a whole start, update and end', () => {
    expect(liveActivityProblems(start)).toEqual([]);
    expect(liveActivityProblems({ event: 'update', activity_id: 'x', content_state: {} })).toEqual([]);
    expect(liveActivityProblems({ event: 'end', activity_id: 'x', dismissal_date: 1 })).toEqual([]);
  });

  it('names what a start lacks or must not have', () => {
    expect(liveActivityProblems({ event: 'start' })).toEqual([
      expect.stringMatching(/^targets: required/),
      expect.stringMatching(/^attributes_type: required/),
      expect.stringMatching(/^attributes: required/),
      expect.stringMatching(/^content_state: required/),
      expect.stringMatching(/^alert: required/),
    ]);
    expect(liveActivityProblems({ ...start, activity_id: 'x', dismissal_date: 5 })).toEqual([expect.stringMatching(/^activity_id: not allowed/), expect.stringMatching(/^dismissal_date: not allowed/)]);
  });

  it('names what an update or end lacks or must not have', () => {
    expect(liveActivityProblems({ event: 'update', targets: [{ device_id: 'd' }], attributes: {}, dismissal_date: 1 })).toEqual([
      expect.stringMatching(/^activity_id: required/),
      expect.stringMatching(/^targets: not allowed/),
      expect.stringMatching(/^attributes: not allowed/),
      expect.stringMatching(/^content_state: required/),
      expect.stringMatching(/^dismissal_date: not allowed/),
    ]);
    expect(liveActivityProblems({ event: 'end', attributes_type: 'A' })).toEqual([expect.stringMatching(/^activity_id: required/), expect.stringMatching(/^attributes_type: not allowed/)]);
  });

  it("refuses a payload over Apple's 4 KB, naming content_state", () => {
    expect(liveActivityProblems({ event: 'update', activity_id: 'x', content_state: { blob: 'x'.repeat(4100) } })).toEqual([expect.stringMatching(/^content_state: the APNs payload would be \d+ bytes/)]);
    expect(liveActivityProblems({ event: 'update', activity_id: 'x', content_state: { blob: 'x'.repeat(3900) } })).toEqual([]);
  });

  it('takes targets as a notification does, naming the node of a bad expression and refusing saved segments', () => {
    expect(liveActivityProblems({ ...start, targets: ['scores', { topic: 'fans' }, { and: [{ external_id: 'u' }, { metadata: { team: 'blue' } }] }] })).toEqual([]);
    expect(liveActivityProblems({ ...start, targets: [{ and: [] }] })).toEqual([expect.stringMatching(/^targets\[0\]\.and: /)]);
    expect(liveActivityProblems({ ...start, targets: [{ or: [{ topic: 'a' }, { segment: 'vip' }] }] })).toEqual([expect.stringMatching(/^targets\[0\]\.or\[1\]\.segment: saved segments are not supported/)]);
  });
});

describe('segmentPaths', () => {
  it('finds segment leaves at any depth', () => {
    expect(segmentPaths(['vip', { segment: 's' }, { not: { and: [{ topic: 't' }, { segment: 'x' }] } }])).toEqual(['targets[1].segment', 'targets[2].not.and[1].segment']);
  });
});

describe('liveActivityCounts', () => {
  it('counts tokens by outcome, and a coalesced push by the tokens it would have reached', () => {
    expect(liveActivityCounts([{ outcome: 'delivered' }, { outcome: 'delivered' }, { outcome: 'invalid' }, { outcome: 'failed' }], 0)).toEqual({ delivered: 2, invalid: 1, failed: 1, coalesced: 0 });
    expect(liveActivityCounts([], 3)).toEqual({ delivered: 0, invalid: 0, failed: 0, coalesced: 3 });
  });
});
