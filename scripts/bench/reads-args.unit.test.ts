import { describe, expect, it } from 'vitest';
import { parseReadsArgs, projectSizes } from './reads-args.ts';

describe('bench:reads arguments', () => {
  it('spreads items over projects: one large, one single, the rest shared, nothing lost', () => {
    expect(projectSizes(1_000_000, 10)).toEqual([400_000, 75_000, 75_000, 75_000, 75_000, 75_000, 75_000, 75_000, 74_999, 1]);
    for (const [total, projects] of [[1_000_000, 10], [100_000, 3], [12, 5]] as const) {
      const sizes = projectSizes(total, projects);
      expect(sizes).toHaveLength(projects);
      expect(sizes.reduce((sum, n) => sum + n, 0)).toBe(total);
      expect(sizes.at(-1)).toBe(1);
    }
  });

  it('reads the options and refuses a bad value naming it', () => {
    expect(parseReadsArgs(['--devices', '1_000_000', '--projects', '10', '--notifications', '100000', '--json'])).toMatchObject({ devices: 1_000_000, projects: 10, notifications: 100_000, apiRegistrations: 20_000, inFlight: 64, clients: 8, json: true });
    expect(() => parseReadsArgs(['--projects', '2'])).toThrow(/--projects: invalid value '2'/);
  });
});
