import { describe, expect, it } from 'vitest';
import { createEvent } from '@herald/events';
import { DeliveryControls } from './delivery-controls.ts';

const control = (data: { paused?: boolean; rate_per_minute?: number; cancelled?: boolean }) => createEvent('DeliveryControl', { notification_id: 'n1', ...data }, { project_id: 'p1' });

describe('DeliveryControls', () => {
  it('pauses, re-paces and resumes with the latest record winning field by field', () => {
    const controls = new DeliveryControls();
    expect(controls.steering('n1')).toEqual({ paused: false });
    controls.apply(control({ paused: true }));
    expect(controls.isPaused('n1')).toBe(true);
    controls.apply(control({ rate_per_minute: 600 }));
    expect(controls.steering('n1')).toEqual({ paused: true, ratePerMinute: 600 });
    controls.apply(control({ paused: false }));
    expect(controls.steering('n1')).toEqual({ paused: false, ratePerMinute: 600 });
  });

  it('keeps a cancel final: a later pause or resume does not revive the notification', () => {
    const controls = new DeliveryControls();
    controls.apply(control({ paused: true }));
    controls.apply(control({ cancelled: true }));
    controls.apply(control({ paused: false }));
    expect(controls.isCancelled('n1')).toBe(true);
    expect(controls.isPaused('n1')).toBe(false);
  });

  it('wakes waiters on a change, not before', async () => {
    const controls = new DeliveryControls();
    let woken = false;
    const waiting = controls.changed().then(() => (woken = true));
    await Promise.resolve();
    expect(woken).toBe(false);
    controls.apply(control({ paused: true }));
    await waiting;
    expect(woken).toBe(true);
  });

  it("keeps each project's latest push-back (ProjectThrottled), never moving it earlier, and wakes waiters", async () => {
    const controls = new DeliveryControls();
    const throttled = (until: string, project = 'p1') => createEvent('ProjectThrottled', { provider: 'fcm', until, reason: 'QUOTA_EXCEEDED' }, { project_id: project });
    const woken = controls.changed();
    controls.throttle(throttled('2026-11-24T10:00:05.000Z'));
    await woken;
    controls.throttle(throttled('2026-11-24T10:00:01.000Z'));
    expect(controls.throttledUntil('p1')).toBe(Date.parse('2026-11-24T10:00:05.000Z'));
    expect(controls.throttledUntil('p2')).toBeUndefined();
  });
});
