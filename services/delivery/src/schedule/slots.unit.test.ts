import { describe, expect, it } from 'vitest';
import { isScheduledSend, planLocalSlots } from './slots.ts';

describe('planLocalSlots', () => {
  it('gives each zone its own 09:00, grouping zones that share the offset, in due order', () => {
    const slots = planLocalSlots('2026-12-01T09:00', ['America/New_York', 'Europe/Paris', 'Europe/Berlin', 'Asia/Tokyo'], 'UTC');
    expect(slots).toEqual([
      { index: 0, count: 4, at: '2026-12-01T00:00:00.000Z', zones: ['Asia/Tokyo'], include_unset: false },
      { index: 1, count: 4, at: '2026-12-01T08:00:00.000Z', zones: ['Europe/Berlin', 'Europe/Paris'], include_unset: false },
      { index: 2, count: 4, at: '2026-12-01T09:00:00.000Z', zones: ['UTC'], include_unset: true },
      { index: 3, count: 4, at: '2026-12-01T14:00:00.000Z', zones: ['America/New_York'], include_unset: false },
    ]);
  });

  it("follows daylight saving on the send's date and puts unzoned devices with the project's default", () => {
    const summer = planLocalSlots('2026-07-01T09:00', ['Europe/Paris'], 'Europe/Paris');
    expect(summer).toEqual([{ index: 0, count: 1, at: '2026-07-01T07:00:00.000Z', zones: ['Europe/Paris'], include_unset: true }]);
  });

  it('skips names luxon does not know', () => {
    expect(planLocalSlots('2026-12-01T09:00', ['Mars/Olympus'], 'UTC').map((slot) => slot.zones)).toEqual([['UTC']]);
  });
});

describe('isScheduledSend', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  it('waits for a future send_at and for every local-time send', () => {
    expect(isScheduledSend({ send_at: '2026-11-23T10:00:01Z' }, now)).toBe(true);
    expect(isScheduledSend({ send_at: '2026-11-23T09:59:30Z' }, now)).toBe(false);
    expect(isScheduledSend({ send_at_local: '2026-11-23T09:00' }, now)).toBe(true);
    expect(isScheduledSend({}, now)).toBe(false);
  });
});
