import { describe, expect, it } from 'vitest';
import { coalesceStep } from './coalesce.ts';

const base = { createdAtMs: 10_000, nowMs: 10_100, intervalMs: 1_000 };

describe('coalesceStep', () => {
  it('sends an update of a quiet activity at once', () => {
    expect(coalesceStep(base)).toEqual({ kind: 'send' });
    expect(coalesceStep({ ...base, lastSentAtMs: 9_000 })).toEqual({ kind: 'send' });
  });

  it('coalesces an update into a newer one accepted within the interval', () => {
    expect(coalesceStep({ ...base, newer: { id: 'n', createdAtMs: 10_999 } })).toEqual({ kind: 'coalesce', into: 'n' });
    // Coalescing wins over waiting: the newer one is what the device should see.
    expect(coalesceStep({ ...base, newer: { id: 'n', createdAtMs: 10_500 }, lastSentAtMs: 10_050 })).toEqual({ kind: 'coalesce', into: 'n' });
  });

  it('sends an update whose newer one came a whole interval later (it was not faster than the rate)', () => {
    expect(coalesceStep({ ...base, newer: { id: 'n', createdAtMs: 11_000 } })).toEqual({ kind: 'send' });
  });

  it('holds an update until the interval since the last push has passed', () => {
    expect(coalesceStep({ ...base, lastSentAtMs: 9_400 })).toEqual({ kind: 'wait', ms: 300 });
    expect(coalesceStep({ ...base, lastSentAtMs: 10_100 })).toEqual({ kind: 'wait', ms: 1_000 });
    // A last send stamped ahead of this clock never holds longer than one interval.
    expect(coalesceStep({ ...base, lastSentAtMs: 50_000 })).toEqual({ kind: 'wait', ms: 1_000 });
  });

  it('never holds or coalesces with the rate off', () => {
    expect(coalesceStep({ ...base, intervalMs: 0, lastSentAtMs: 10_100, newer: { id: 'n', createdAtMs: 10_001 } })).toEqual({ kind: 'send' });
  });
});
