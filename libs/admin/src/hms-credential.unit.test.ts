import { describe, expect, it } from 'vitest';
import { ValidationError } from '@herald/errors';
import { hmsCredentialProblems, summarizeHms, validateHmsCredential } from './hms-credential.ts';

const valid = { appId: '101234567', clientId: '101234567', clientSecret: 'a'.repeat(64) };

describe('HMS credentials', () => {
  it('accepts AppGallery Connect ids and secret; the summary never holds the secret', () => {
    expect(validateHmsCredential(valid)).toEqual(valid);
    expect(JSON.stringify(summarizeHms(valid))).not.toContain('aaaa');
    expect(summarizeHms(valid)).toEqual({ app_id: '101234567', client_id: '101234567' });
  });

  it('names every bad field, with the caller’s labels', () => {
    const labels = { appId: '--app-id', clientId: '--client-id', clientSecret: '--client-secret' };
    const problems = hmsCredentialProblems({ appId: 'com.example', clientId: undefined, clientSecret: 'has space in it' }, labels);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^--app-id must be the numeric App ID/);
    expect(problems[1]).toMatch(/^--client-id /);
    expect(problems[2]).toMatch(/^--client-secret /);
    expect(() => validateHmsCredential({ ...valid, clientSecret: 'short' })).toThrow(ValidationError);
  });
});
