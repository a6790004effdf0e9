import { describe, expect, it } from 'vitest';
import { mayRepointDevice } from './token-refresh.ts';

const base = { currentToken: 'old', newToken: 'new', previousToken: undefined, bearerProjectId: undefined, projectId: 'p1' };

describe('mayRepointDevice', () => {
  it('needs no proof when the token stays the same', () => {
    expect(mayRepointDevice({ ...base, newToken: 'old' })).toBe(true);
  });
  it('refuses a new token without proof', () => {
    expect(mayRepointDevice(base)).toBe(false);
  });
  it('accepts the current token as previous_token, refuses any other', () => {
    expect(mayRepointDevice({ ...base, previousToken: 'old' })).toBe(true);
    expect(mayRepointDevice({ ...base, previousToken: 'ol' })).toBe(false);
    expect(mayRepointDevice({ ...base, previousToken: 'new' })).toBe(false);
  });
  it("accepts the device's own project's bearer key, not another project's", () => {
    expect(mayRepointDevice({ ...base, bearerProjectId: 'p1' })).toBe(true);
    expect(mayRepointDevice({ ...base, bearerProjectId: 'p2' })).toBe(false);
  });
});
