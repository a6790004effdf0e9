import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type HeraldEvent } from '@herald/events';
import { repeatedIndexes } from '@herald/mongo';
import { PROJECTIONS } from './catalog.ts';

describe('read model index declarations', () => {
  it('name each index once per read model, and declare each key pattern once', () => {
    for (const projection of Object.values(PROJECTIONS)) {
      // These are read by `_id` (or an `_id` range) only.
      if (projection.name !== 'notification_reports') expect(projection.indexes.length, projection.name).toBeGreaterThan(0);
      expect(repeatedIndexes(projection.indexes), projection.name).toEqual([]);
    }
  });
});

describe('event types a projection names', () => {
  const context = { project_id: 'p' };
  const notificationEvents: HeraldEvent[] = [
    createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] }, context),
    // notification_reports reads a request for its `test_send` only.
    createEvent('NotificationRequested', { notification_id: 'n2', title: 't', body: 'b', targets: [{ token: 'x' }], test_send: true }, context),
    createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 1, fcm: 0 }, batches: { apns: 1, fcm: 0 } }, context),
    createEvent('DeliveryReported', { notification_id: 'n1', batch_id: 'n1:apns:0:0', provider: 'apns', results: [{ device_id: 'd1', outcome: 'delivered', attempts: 1 }] }, context),
    createEvent('NotificationOpened', { notification_id: 'n1', device_id: 'd1', batch_id: 'n1:apns:0:0' }, context),
    createEvent('NotificationCancelled', { notification_id: 'n1' }, context),
    createEvent('NotificationExpired', { notification_id: 'n1', reason: 'too old' }, context),
  ];

  it('are the only ones it folds: what it passes over undecoded would have changed nothing', () => {
    const named = Object.values(PROJECTIONS).filter((projection) => projection.types !== undefined);
    expect(named.map((projection) => projection.name).sort()).toEqual(['delivery_ledger', 'notification_reports']);
    for (const projection of named) {
      const touched = new Set<string>();
      for (const [offset, event] of notificationEvents.entries()) {
        const record = { event, topic: TOPICS.notificationEvents, partition: 0, offset };
        if (projection.documentIds(record).length === 0) continue;
        touched.add(event.type);
        expect(projection.types!.includes(event.type), `${projection.name} ${event.type}`).toBe(true);
      }
      // Each type it names is folded by some event of that type (a request: a test send's).
      expect([...touched].sort(), projection.name).toEqual([...projection.types!].sort());
    }
  });
});
