import { describe, expect, it } from 'vitest';
import { chartBuckets, overviewWindow } from './overview-window.ts';

const hour = (at: string, delivered: number, opened = 0) => ({ hour: at, delivered, failed: 1, invalid: 0, opened });

describe("the Overview's window", () => {
  it('is one of the offered windows, the last day otherwise', () => {
    expect(overviewWindow('168')).toEqual({ hours: 168, label: 'Last 7 days' });
    expect(overviewWindow('720').label).toBe('Last 30 days');
    for (const value of [undefined, '', '48', 'week', '24']) expect(overviewWindow(value).hours).toBe(24);
  });

  it('charts a day by the hour and longer windows by the UTC day', () => {
    const hours = [hour('2026-05-01T22:00:00.000Z', 2, 1), hour('2026-05-01T23:00:00.000Z', 3), hour('2026-05-02T00:00:00.000Z', 4, 2)];
    expect(chartBuckets(hours, 24)).toEqual([
      { at: Date.parse('2026-05-01T22:00:00.000Z'), span: 'hour', delivered: 2, failed: 1, invalid: 0, opened: 1 },
      { at: Date.parse('2026-05-01T23:00:00.000Z'), span: 'hour', delivered: 3, failed: 1, invalid: 0, opened: 0 },
      { at: Date.parse('2026-05-02T00:00:00.000Z'), span: 'hour', delivered: 4, failed: 1, invalid: 0, opened: 2 },
    ]);
    expect(chartBuckets(hours, 168)).toEqual([
      { at: Date.parse('2026-05-01T00:00:00.000Z'), span: 'day', delivered: 5, failed: 2, invalid: 0, opened: 1 },
      { at: Date.parse('2026-05-02T00:00:00.000Z'), span: 'day', delivered: 4, failed: 1, invalid: 0, opened: 2 },
    ]);
    expect(chartBuckets([], 720)).toEqual([]);
  });
});
