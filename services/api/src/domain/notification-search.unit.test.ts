import { describe, expect, it } from 'vitest';
import { searchFilter } from '@herald/mongo';
import { checkedRange } from './notification-search.ts';

describe('the notification search', () => {
  it('compares times as the read model stores them: UTC text', () => {
    expect(checkedRange('2026-12-07T09:00:00+09:00', '2026-12-08T00:00:00Z')).toEqual({ created_from: '2026-12-07T00:00:00.000Z', created_to: '2026-12-08T00:00:00.000Z' });
    expect(checkedRange(undefined, undefined)).toEqual({});
  });

  it('refuses an empty range naming the field', () => {
    expect(() => checkedRange('2026-12-08T00:00:00Z', '2026-12-07T00:00:00Z')).toThrow(/created_to: must be after created_from/);
  });

  it('matches the title as typed: a caller’s pattern characters are literal', () => {
    const filter = searchFilter('p', { q: 'Sale (50%)? .*' }) as { title: { $regex: string; $options: string } };
    expect(filter.title.$options).toBe('i');
    const pattern = new RegExp(filter.title.$regex, filter.title.$options);
    expect(pattern.test('Winter sale (50%)? .* today')).toBe(true);
    expect(pattern.test('Winter sale 50 today')).toBe(false);
  });

  it('keeps to the project, leaves test sends out unless asked, and adds only the filters asked', () => {
    const noTests = { test_send: { $ne: true } };
    expect(searchFilter('p', {})).toEqual({ project_id: 'p', ...noTests });
    expect(searchFilter('p', { include_tests: true })).toEqual({ project_id: 'p' });
    expect(searchFilter('p', { status: 'sent', outcome: 'failed', created_from: 'a' })).toEqual({ project_id: 'p', status: 'sent', 'counts.failed': { $gt: 0 }, created_at: { $gte: 'a' }, ...noTests });
  });
});
