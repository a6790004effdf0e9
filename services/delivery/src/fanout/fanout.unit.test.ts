import { describe, expect, it } from 'vitest';
import { createEvent } from '@herald/events';
import { isExpired, itemOf } from './fanout.ts';

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

describe('itemOf', () => {
  const data = { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] };
  it('makes a request step 0, expiring from when it was requested', () => {
    const request = createEvent('NotificationRequested', data, { project_id: 'p', correlation_id: 'c', now: new Date('2026-01-01T00:00:00.000Z') });
    expect(itemOf(request)).toEqual({ id: request.id, fanoutId: 'n1', step: 0, projectId: 'p', correlationId: 'c', requestedAt: '2026-01-01T00:00:00.000Z', request: data });
  });
  it('carries a continuation step and the original request time', () => {
    const step = createEvent('FanoutStep', { ...data, step: 4, requested_at: '2026-01-01T00:00:00.000Z' }, { project_id: 'p' });
    expect(itemOf(step)).toEqual({ id: step.id, fanoutId: 'n1', step: 4, projectId: 'p', correlationId: undefined, requestedAt: '2026-01-01T00:00:00.000Z', request: data });
  });
  it('names one slot of a local-time send apart from the others, so each keeps its own progress and batch ids', () => {
    const slot = { index: 2, count: 3, at: '2026-01-01T09:00:00.000Z', zones: ['Europe/Paris'], include_unset: false };
    const step = createEvent('FanoutStep', { ...data, step: 0, slot, requested_at: slot.at }, { project_id: 'p' });
    expect(itemOf(step)).toMatchObject({ fanoutId: 'n1@2', step: 0, requestedAt: slot.at, request: { ...data, slot } });
  });
});
