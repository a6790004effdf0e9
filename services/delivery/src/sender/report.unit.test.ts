import { describe, expect, it } from 'vitest';
import { createEvent } from '@herald/events';
import { allFailed, batchReport } from './report.ts';

const batch = createEvent(
  'DeliveryBatch',
  {
    batch_id: 'n1:apns:0',
    notification_id: 'n1',
    provider: 'apns',
    sequence: 0,
    message: { title: 't', body: 'b' },
    devices: [
      { device_id: 'a', token: 'ta' },
      { device_id: 'b', token: 'tb' },
      { device_id: 'c', token: 'tc' },
      { device_id: 'd', token: 'td' },
    ],
  },
  { project_id: 'p', correlation_id: 'req-1' },
);

describe('batchReport', () => {
  it('maps every outcome and deactivates dead tokens with the provider timestamp', () => {
    const { reported, deactivated } = batchReport(batch, [
      { device_id: 'a', outcome: 'delivered', attempts: 1 },
      { device_id: 'b', outcome: 'token-invalid', reason: 'Unregistered', providerTimestamp: '2026-01-01T00:00:00.000Z', attempts: 1 },
      { device_id: 'c', outcome: 'rejected', reason: 'PayloadTooLarge', attempts: 1 },
      { device_id: 'd', outcome: 'retryable', reason: 'TooManyRequests', attempts: 4 },
    ]);
    expect(reported).toMatchObject({ type: 'DeliveryReported', project_id: 'p', stream_id: 'n1', correlation_id: 'req-1' });
    expect(reported.data.results).toEqual([
      { device_id: 'a', outcome: 'delivered', attempts: 1 },
      { device_id: 'b', outcome: 'invalid', reason: 'Unregistered', attempts: 1 },
      { device_id: 'c', outcome: 'failed', reason: 'PayloadTooLarge', attempts: 1 },
      { device_id: 'd', outcome: 'failed', reason: 'TooManyRequests', attempts: 4 },
    ]);
    expect(deactivated.map((event) => event.data)).toEqual([
      { device_id: 'b', provider: 'apns', reason: 'Unregistered', notification_id: 'n1', provider_timestamp: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(deactivated[0]!.stream_id).toBe('b');
  });

  it('reports a batch that could not be sent as failed, without deactivating anyone', () => {
    const { reported, deactivated } = batchReport(batch, allFailed(batch.data.devices, 'NoCredentials'));
    expect(reported.data.results.every((result) => result.outcome === 'failed' && result.reason === 'NoCredentials')).toBe(true);
    expect(deactivated).toEqual([]);
  });
});
