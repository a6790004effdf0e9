import { describe, expect, it } from 'vitest';
import { sleepAfter } from './scheduler.ts';

describe('sleepAfter', () => {
  const now = 1_000_000;
  it('looks again at once after a full page, soon while due schedules are leased elsewhere', () => {
    expect(sleepAfter({ fired: 50, dueLeft: true }, now, 200, 5_000)).toBe(0);
    expect(sleepAfter({ fired: 0, dueLeft: true, nextDueAt: now + 60_000 }, now, 200, 5_000)).toBe(200);
  });
  it('sleeps until the next due time, at most idleMs, and idleMs with nothing pending', () => {
    expect(sleepAfter({ fired: 1, dueLeft: false, nextDueAt: now + 1_234 }, now, 200, 5_000)).toBe(1_234);
    expect(sleepAfter({ fired: 0, dueLeft: false, nextDueAt: now + 86_400_000 }, now, 200, 5_000)).toBe(5_000);
    expect(sleepAfter({ fired: 0, dueLeft: false, nextDueAt: now - 5 }, now, 200, 5_000)).toBe(0);
    expect(sleepAfter({ fired: 0, dueLeft: false }, now, 200, 5_000)).toBe(5_000);
  });
});
