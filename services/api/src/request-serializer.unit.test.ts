import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-serializer.ts';

describe('redactUrl', () => {
  it('replaces identifiers, their hashes and tokens, and keeps the rest', () => {
    expect(redactUrl('/api/v1/metadata?project_id=p1&identifier=alice%40example.com&identifier_hash=abc')).toBe(
      '/api/v1/metadata?project_id=p1&identifier=[redacted]&identifier_hash=[redacted]',
    );
    expect(redactUrl('/api/v1/notifications/n1/open?token=t&project_id=p')).toBe('/api/v1/notifications/n1/open?token=[redacted]&project_id=p');
  });

  it('catches encoded parameter names and leaves URLs without a query alone', () => {
    expect(redactUrl('/x?identi%66ier=bob')).toBe('/x?identi%66ier=[redacted]');
    expect(redactUrl('/health')).toBe('/health');
    expect(redactUrl('/x?%zz=1')).toBe('/x?%zz=1');
  });
});
