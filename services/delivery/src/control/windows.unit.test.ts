import { describe, expect, it } from 'vitest';
import { capDecision, quietHoursEnd, windowStart } from './windows.ts';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe('cap windows', () => {
  it('aligns fixed windows to the epoch', () => {
    expect(windowStart(at('2026-03-01T10:37:00Z'), HOUR)).toBe(at('2026-03-01T10:00:00Z'));
  });

  it('fits a push under the cap and says when the next fits once it is reached', () => {
    const sent = [at('2026-03-01T08:00:00Z'), at('2026-03-01T09:30:00Z')];
    expect(capDecision(sent, at('2026-03-01T10:00:00Z'), 3, 24 * HOUR)).toEqual({ fits: true });
    expect(capDecision(sent, at('2026-03-01T10:00:00Z'), 2, 24 * HOUR)).toEqual({ fits: false, eligibleAt: at('2026-03-02T08:00:00Z') });
    expect(capDecision(sent, at('2026-03-01T10:00:00Z'), 1, 24 * HOUR)).toEqual({ fits: false, eligibleAt: at('2026-03-02T09:30:00Z') });
    // Pushes older than the window no longer count.
    expect(capDecision(sent, at('2026-03-02T08:30:00Z'), 2, 24 * HOUR)).toEqual({ fits: true });
  });
});

describe('quiet hours', () => {
  const night = { start: '22:00', end: '08:00' };

  it("defers a push in the device's night to its own morning", () => {
    // 23:30 in Paris (UTC+1 in winter) → 08:00 Paris the next day = 07:00Z.
    expect(quietHoursEnd(at('2026-01-10T22:30:00Z'), 'Europe/Paris', night)).toBe(at('2026-01-11T07:00:00Z'));
    // 03:00 in New York (UTC-5) → 08:00 the same day = 13:00Z.
    expect(quietHoursEnd(at('2026-01-10T08:00:00Z'), 'America/New_York', night)).toBe(at('2026-01-10T13:00:00Z'));
  });

  it('lets a push outside quiet hours leave at once, and treats an unknown zone as UTC', () => {
    expect(quietHoursEnd(at('2026-01-10T12:00:00Z'), 'Europe/Paris', night)).toBe(at('2026-01-10T12:00:00Z'));
    expect(quietHoursEnd(at('2026-01-10T23:00:00Z'), 'Not/AZone', night)).toBe(at('2026-01-11T08:00:00Z'));
  });

  it('handles a window inside one day and an empty window', () => {
    expect(quietHoursEnd(at('2026-01-10T13:00:00Z'), 'UTC', { start: '12:00', end: '14:00' })).toBe(at('2026-01-10T14:00:00Z'));
    expect(quietHoursEnd(at('2026-01-10T13:00:00Z'), 'UTC', { start: '12:00', end: '12:00' })).toBe(at('2026-01-10T13:00:00Z'));
  });
});
