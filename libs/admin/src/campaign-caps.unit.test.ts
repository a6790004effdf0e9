import { describe, expect, it } from 'vitest';
import { capRule, parseFrequencyCap, parseQuietHours, windowSeconds } from './campaign-caps.ts';

describe('frequency cap settings', () => {
  it('reads windows in seconds, minutes, hours and days', () => {
    expect([windowSeconds('90'), windowSeconds('90s'), windowSeconds('15m'), windowSeconds('24h'), windowSeconds('7d')]).toEqual([90, 90, 900, 86_400, 604_800]);
    expect([windowSeconds('0s'), windowSeconds('1w'), windowSeconds('-1h'), windowSeconds('')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('takes a cap with its defaults (per device, drop) and names it', () => {
    const parsed = parseFrequencyCap({ max: '3', window: '24h' });
    expect(parsed).toEqual({ cap: { max: 3, window_seconds: 86_400, per: 'device', on_cap: 'drop' } });
    expect(capRule({ max: 3, window_seconds: 86_400, per: 'user', on_cap: 'defer' })).toBe('cap 3/86400s per user');
  });

  it('names every bad field', () => {
    expect(parseFrequencyCap({ max: '0', window: '32d', per: 'team', on_cap: 'queue' })).toEqual({
      errors: [
        'max: 0 must be a whole number of pushes from 1 to 1000',
        'window: 32d must be a duration like 90s, 15m, 24h or 7d, at most 31d',
        'per: team must be device or user',
        'on_cap: queue must be drop or defer',
      ],
    });
    expect(parseFrequencyCap({ max: '2.5', window: '1h' })).toEqual({ errors: ['max: 2.5 must be a whole number of pushes from 1 to 1000'] });
  });
});

describe('quiet hours settings', () => {
  it('takes HH:mm-HH:mm, spanning midnight or not', () => {
    expect(parseQuietHours('22:00-08:00')).toEqual({ quiet: { start: '22:00', end: '08:00' } });
    expect(parseQuietHours('12:30-14:00')).toEqual({ quiet: { start: '12:30', end: '14:00' } });
  });

  it('names the bad part', () => {
    expect(parseQuietHours('25:00-08:00')).toEqual({ errors: ['quiet_hours.start: 25:00 must be HH:mm (00:00 to 23:59)'] });
    expect(parseQuietHours('22:00-8')).toEqual({ errors: ['quiet_hours.end: 8 must be HH:mm (00:00 to 23:59)'] });
    expect(parseQuietHours('22:00')).toEqual({ errors: ['quiet_hours: 22:00 must be HH:mm-HH:mm (e.g. 22:00-08:00)'] });
    expect(parseQuietHours('08:00-08:00')).toEqual({ errors: ['quiet_hours: start and end are equal (an empty window); use off to remove quiet hours'] });
  });
});
