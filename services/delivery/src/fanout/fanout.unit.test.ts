import { describe, expect, it } from 'vitest';
import { isExpired } from './fanout.ts';

describe('isExpired', () => {
  const requested = '2026-01-01T00:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);
  it('sends requests younger than the maximum age and drops older ones', () => {
    expect(isExpired(requested, 60_000, at('2026-01-01T00:00:59.000Z'))).toBe(false);
    expect(isExpired(requested, 60_000, at('2026-01-01T00:01:01.000Z'))).toBe(true);
  });
  it('never expires without a maximum age', () => {
    expect(isExpired(requested, undefined, at('2030-01-01T00:00:00.000Z'))).toBe(false);
  });
});
