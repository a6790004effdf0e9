import { describe, expect, it } from 'vitest';
import { liveActivityFacts } from './live-activity-facts.ts';

const at = new Date('2026-12-07T10:00:00Z');

describe('liveActivityFacts', () => {
  it("names the missing APNs credentials of a Live Activity push that failed for them, and keeps to the device's own outcomes", () => {
    const facts = liveActivityFacts(
      [
        { _id: 'p2', event: 'start', activity_id: null, attributes_type: 'Score', created_at: at, outcomes: [{ device_id: 'd1', outcome: 'failed', reason: 'NoApnsCredentials' }, { device_id: 'd2', outcome: 'delivered' }] },
        { _id: 'p1', event: 'update', activity_id: 'a1', attributes_type: null, created_at: at, outcomes: [{ device_id: 'd1', outcome: 'delivered' }] },
      ],
      'd1',
    );
    expect(facts).toEqual([
      { id: 'p2', event: 'start', activity_id: null, attributes_type: 'Score', at: at.toISOString(), outcome: 'failed', reason: 'NoApnsCredentials', summary: expect.stringContaining('herald providers apns') },
      { id: 'p1', event: 'update', activity_id: 'a1', attributes_type: null, at: at.toISOString(), outcome: 'delivered', reason: null, summary: 'Live Activity update delivered: APNs took it' },
    ]);
    expect(facts[0]!.summary).toMatch(/^Live Activity start not delivered \(NoApnsCredentials: the project has no APNs credentials/);
  });
});
