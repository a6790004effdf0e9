import { describe, expect, it } from 'vitest';
import { decisionDue, headingOf, variantRows } from './report-content.ts';

const counts = (targeted: number) => ({ targeted, sent: targeted, delivered: targeted, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 });

describe('the report of an A/B send', () => {
  it('lists the variants in the request’s order, then any other, then holdout and remainder; none it has no counts for', () => {
    const rows = variantRows({ remainder: counts(5), B: counts(2), holdout: counts(1), A: counts(3), C: counts(4) }, ['A', 'B', 'Z']);
    expect(rows.map(([name]) => name)).toEqual(['A', 'B', 'C', 'holdout', 'remainder']);
  });

  it('is due decide_after from send_at, else from dispatch; unknown without either', () => {
    expect(decisionDue({ test: { decide_after: 'PT2H' }, send_at: '2026-12-24T09:00:00Z' }, '2026-12-24T08:00:00Z')).toBe('2026-12-24T11:00:00.000Z');
    expect(decisionDue({ test: { decide_after: 'P1D' } }, '2026-12-24T08:00:00Z')).toBe('2026-12-25T08:00:00.000Z');
    expect(decisionDue({ test: { decide_after: 'P1D' } }, null)).toBeUndefined();
    expect(decisionDue({}, '2026-12-24T08:00:00Z')).toBeUndefined();
  });
});

describe('the report’s heading', () => {
  it('names a template send by the version the API pinned', () => {
    const pinned = { id: 'e167bc86-69fc-5ab4-9d41-65915661c3de', name: 'welcome', version: 2, content: {}, variables: { code: 'X7' } };
    expect(headingOf({ title: 'Hi {{ name }}', body: 'b', request: { title: 'Hi {{ name }}', body: 'b', template: pinned, targets: [] } }).title).toBe('Template welcome@2');
  });

  it('names a template send by its template, not by its Liquid source', () => {
    expect(headingOf({ title: 'Hi {{ name }}', body: 'b', request: { template: 'welcome@2', variables: { name: 'Ana' }, targets: [] } as never })).toEqual({
      title: 'Template welcome@2',
      lead: "Each device got the template's content in its language, rendered with {\"name\":\"Ana\"} and its own values.",
    });
  });

  it('says an A/B send’s text is its first variant’s, and leaves a literal send as it is', () => {
    expect(headingOf({ title: 'Sale', body: 'Today', request: { variants: [{ name: 'A' }, { name: 'B' }], targets: [] } as never }).lead).toBe('Today (variant A of an A/B test of A, B: results below)');
    expect(headingOf({ title: '', body: 'x', request: { title: '', body: 'x', targets: [] } })).toEqual({ title: '(no title)', lead: 'x' });
  });
});
