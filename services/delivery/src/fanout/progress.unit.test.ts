import { describe, expect, it } from 'vitest';
import { planFanout } from './progress.ts';

const recorded = { after: 'd-500', sequence: { apns: 3, fcm: 2 }, targeted: { apns: 1000, fcm: 500 }, dispatched: false };

describe('planFanout', () => {
  it('streams the whole audience the first time', () => {
    expect(planFanout(null, false)).toEqual({ kind: 'stream', after: undefined, start: undefined });
  });

  it('resumes after the last queued device, with the reserved sequence numbers and the counts so far', () => {
    expect(planFanout(recorded, false)).toEqual({ kind: 'stream', after: 'd-500', start: { sequence: { apns: 3, fcm: 2 }, targeted: { apns: 1000, fcm: 500 } } });
  });

  it('only re-announces a fan-out that finished', () => {
    expect(planFanout({ ...recorded, dispatched: true }, false)).toEqual({ kind: 'announce', targeted: { apns: 1000, fcm: 500 }, batches: { apns: 3, fcm: 2 } });
  });

  it('queues nothing more for an expired request, announcing what was queued before', () => {
    expect(planFanout(null, true)).toEqual({ kind: 'announce', targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 } });
    expect(planFanout(recorded, true)).toMatchObject({ kind: 'announce', targeted: { apns: 1000, fcm: 500 } });
  });
});
