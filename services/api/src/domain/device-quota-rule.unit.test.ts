import { describe, expect, it } from 'vitest';
import { anonymousQuotaOf, isDeleted, quotaProblem } from './device-quota-rule.ts';

const state = (held: number, anonymousHeld: number) => ({ projectId: 'p', held, anonymousHeld, quota: 10, anonymousPercent: 50 });

describe('quotaProblem', () => {
  it('lets anonymous devices fill only their share, and the key the rest', () => {
    expect(anonymousQuotaOf(10, 50)).toBe(5);
    expect(anonymousQuotaOf(3, 90)).toBe(2);
    expect(quotaProblem(state(4, 4), true)).toBeUndefined();
    expect(quotaProblem(state(5, 5), true)).toMatch(/^project_id p holds 5 devices registered without its API key/);
    expect(quotaProblem(state(5, 5), false)).toBeUndefined();
    expect(quotaProblem(state(9, 5), false)).toBeUndefined();
  });

  it('refuses every new device once the project holds its quota', () => {
    expect(quotaProblem(state(10, 0), false)).toMatch(/^project_id p holds its quota of 10 devices/);
    expect(quotaProblem(state(10, 0), true)).toMatch(/holds its quota of 10 devices/);
  });

  it('knows a deleted device from one a provider deactivated', () => {
    expect(isDeleted({ deactivation: { reason: 'Unregistered' } })).toBe(true);
    expect(isDeleted({ deactivation: { reason: 'BadDeviceToken' } })).toBe(false);
    expect(isDeleted({})).toBe(false);
    expect(isDeleted(undefined)).toBe(false);
  });
});
