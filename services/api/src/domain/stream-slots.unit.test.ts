import { describe, expect, it } from 'vitest';
import { mayOpenStream } from './stream-slots.ts';

const limits = { perProcess: 100, perProject: 5 };

/** Opens streams for `projects` tenants, each asking for as many as it may hold, round after round; answers what each got. */
function fill(projects: number): number[] {
  const held = Array.from({ length: projects }, () => 0);
  let open = 0;
  for (let round = 0; round < limits.perProject; round += 1) {
    for (let project = 0; project < projects; project += 1) {
      if (mayOpenStream({ open, projectOpen: held[project]!, ...limits })) {
        held[project]! += 1;
        open += 1;
      }
    }
  }
  return held;
}

describe('mayOpenStream', () => {
  it('keeps half of the slots for first streams: twenty tenants no longer take all of them', () => {
    const held = fill(20);
    expect(held.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(limits.perProcess / 2);
    // Fifty more projects each still get their first stream.
    let open = held.reduce((sum, n) => sum + n, 0);
    for (let project = 0; project < 50; project += 1) {
      expect(mayOpenStream({ open, projectOpen: 0, ...limits })).toBe(true);
      open += 1;
    }
  });

  it('refuses past the per-project and per-process bounds', () => {
    expect(mayOpenStream({ open: 3, projectOpen: 5, ...limits })).toBe(false);
    expect(mayOpenStream({ open: 100, projectOpen: 0, ...limits })).toBe(false);
    expect(mayOpenStream({ open: 49, projectOpen: 4, ...limits })).toBe(true);
    expect(mayOpenStream({ open: 50, projectOpen: 1, ...limits })).toBe(false);
    expect(mayOpenStream({ open: 99, projectOpen: 0, ...limits })).toBe(true);
  });

  it('a lone project on a quiet process gets its full per-project bound', () => {
    expect(fill(1)).toEqual([5]);
  });
});
