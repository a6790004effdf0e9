import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type ConsumedEvent, type DeliveryReportedV2 } from '@herald/events';
import { foldWithCounts } from './apply-counted.ts';
import { type CounterDocument, foldCounts, type NotificationReportDocument, notificationReportsProjection, outcomesCountKey, outcomesOver, sumCounts, testOutcomesCountKey } from '@herald/read-models';

let offset = 0;
const record = (event: ConsumedEvent['event']): ConsumedEvent => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset: offset++ });
const at = (time: string) => ({ project_id: 'p', now: new Date(time) });
const reported = (notification: string, batch: string, results: DeliveryReportedV2['data']['results'], time = '2026-05-01T10:15:00Z') =>
  record(createEvent('DeliveryReported', { notification_id: notification, batch_id: batch, provider: 'fcm' as const, results }, at(time)));
const opened = (notification: string, device: string, locale?: string) =>
  record(createEvent('NotificationOpened', { notification_id: notification, device_id: device, ...(locale === undefined ? {} : { locale }) }, at('2026-05-01T10:30:00Z')));
const requested = (notification: string, testSend: boolean) =>
  record(createEvent('NotificationRequested', { notification_id: notification, title: 't', body: 'b', targets: ['news'], ...(testSend ? { test_send: true as const } : {}) }, at('2026-05-01T10:00:00Z')));

function fold(records: ConsumedEvent[]) {
  const { changed, deltas } = foldWithCounts(notificationReportsProjection, records, new Map<string, NotificationReportDocument>());
  return { reports: changed, counters: foldCounts(new Map<string, CounterDocument>(), deltas) };
}

describe('a report by content locale', () => {
  it('counts each line under the locale it got, once per batch, and each open under its delivery locale', () => {
    const batch = reported('n1', 'n1:fcm:0:0', [
      { device_id: 'a', outcome: 'delivered', locale: 'fr' },
      { device_id: 'b', outcome: 'delivered', locale: 'fr' },
      { device_id: 'c', outcome: 'failed', reason: 'TemplateError', locale: 'es' },
      { device_id: 'd', outcome: 'delivered', locale: 'default' },
    ]);
    const { reports } = fold([batch, { ...batch, offset: offset++ }, opened('n1', 'a', 'fr'), opened('n1', 'd', 'default')]);
    expect(reports.get('n1')?.by_locale).toEqual({
      fr: { targeted: 2, delivered: 2, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 1 },
      es: { targeted: 1, delivered: 0, failed: 1, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 0 },
      default: { targeted: 1, delivered: 1, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 1 },
    });
  });

  it('waits for a deferred line to be released, and has none for a send without locales', () => {
    const { reports } = fold([
      reported('n2', 'n2:fcm:0:0', [{ device_id: 'a', outcome: 'deferred', locale: 'fr', until: '2026-05-01T12:00:00Z' }]),
      reported('n3', 'n3:fcm:0:0', [{ device_id: 'a', outcome: 'delivered' }]),
      opened('n3', 'a'),
    ]);
    expect(reports.get('n2')?.by_locale).toBeUndefined();
    expect(reports.get('n3')?.by_locale).toBeUndefined();
  });
});

describe("a test send's outcomes", () => {
  it('count under the test keys: out of the Overview unless test sends are asked for', () => {
    const { reports, counters } = fold([
      requested('t1', true),
      requested('n1', false),
      reported('t1', 't1:fcm:0:0', [{ device_id: 'a', outcome: 'delivered' }]),
      reported('n1', 'n1:fcm:0:0', [{ device_id: 'b', outcome: 'delivered' }, { device_id: 'c', outcome: 'delivered' }]),
      opened('t1', 'a'),
    ]);
    expect(reports.get('t1')?.test_send).toBe(true);
    expect(reports.get('n1')?.test_send).toBeUndefined();
    const sums = sumCounts([...counters.values()]);
    expect(sums.get(testOutcomesCountKey('2026-05-01T10'))).toEqual({ delivered: 1, opened: 1 });
    expect(sums.get(outcomesCountKey('2026-05-01T10'))).toEqual({ delivered: 2 });
    expect(outcomesOver(sums, ['2026-05-01T10']).totals).toMatchObject({ delivered: 2, opened: 0 });
    expect(outcomesOver(sums, ['2026-05-01T10'], true).totals).toMatchObject({ delivered: 3, opened: 1 });
  });

  it('a request that is no test send makes no report document', () => {
    expect(fold([requested('n9', false)]).reports.size).toBe(0);
  });
});
