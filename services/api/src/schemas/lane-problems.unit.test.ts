import { describe, expect, it } from 'vitest';
import { laneProblems } from './push-options.ts';

describe('laneProblems', () => {
  it('refuses a pace on a transactional send, naming the field', () => {
    expect(laneProblems({ priority_lane: 'transactional', rate_per_minute: 600 })).toEqual(['notification.rate_per_minute cannot be set on a priority_lane "transactional" send (transactional sends are never paced)']);
  });

  it('accepts a paced campaign, an unpaced transactional send and no lane at all', () => {
    expect(laneProblems({ priority_lane: 'campaign', rate_per_minute: 600 })).toEqual([]);
    expect(laneProblems({ priority_lane: 'transactional' })).toEqual([]);
    expect(laneProblems({ rate_per_minute: 600 })).toEqual([]);
    expect(laneProblems(undefined)).toEqual([]);
  });
});
