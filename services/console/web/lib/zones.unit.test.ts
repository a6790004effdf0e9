import { describe, expect, it } from 'vitest';
import { knownZone, wallTimeIn, zoneOffsetMinutes } from './format.ts';

describe('the project zone arithmetic', () => {
  it('gives a zone’s offset at an instant, summer and winter', () => {
    expect(zoneOffsetMinutes('Europe/Paris', Date.parse('2026-01-15T12:00:00Z'))).toBe(60);
    expect(zoneOffsetMinutes('Europe/Paris', Date.parse('2026-07-15T12:00:00Z'))).toBe(120);
    expect(zoneOffsetMinutes('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe(-300);
    expect(zoneOffsetMinutes('Asia/Kolkata', Date.parse('2026-01-15T12:00:00Z'))).toBe(330);
    expect(zoneOffsetMinutes('UTC', Date.parse('2026-01-15T12:00:00Z'))).toBe(0);
  });

  it('finds the instant of a wall-clock time in a zone, across a DST change', () => {
    expect(new Date(wallTimeIn('Europe/Paris', Date.parse('2026-12-07T00:00:00Z'))).toISOString()).toBe('2026-12-06T23:00:00.000Z');
    expect(new Date(wallTimeIn('Asia/Tokyo', Date.parse('2026-12-07T00:00:00Z'))).toISOString()).toBe('2026-12-06T15:00:00.000Z');
    // Paris moves to summer time at 02:00 on 29 March 2026: midnight that day is still winter, the next midnight summer.
    expect(new Date(wallTimeIn('Europe/Paris', Date.parse('2026-03-29T00:00:00Z'))).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(wallTimeIn('Europe/Paris', Date.parse('2026-03-30T00:00:00Z'))).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(new Date(wallTimeIn('America/New_York', Date.parse('2026-11-01T00:00:00Z'))).toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });

  it('tells a known zone from a stored name the runtime does not know', () => {
    expect(knownZone('Europe/Paris')).toBe(true);
    expect(knownZone('Mars/Olympus')).toBe(false);
  });
});
