import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { indexOfSubscriptionId } from './register.ts';

describe('web devices of a campaign run', () => {
  it("reads the device index a fake push service's subscription id names, and -1 for any other id", () => {
    expect(indexOfSubscriptionId('w12345-AbC_d')).toBe(12345);
    expect(indexOfSubscriptionId('sub-w1-x')).toBe(-1);
    expect(indexOfSubscriptionId('w-1')).toBe(-1);
  });

  it('takes --web-share as a fraction, 0 by default', () => {
    expect(parseBenchArgs(['--devices', '1000']).webShare).toBe(0);
    expect(parseBenchArgs(['--devices', '1000', '--web-share', '0.34']).webShare).toBe(0.34);
    expect(() => parseBenchArgs(['--web-share', '1.5'])).toThrow(/web-share/);
  });
});
