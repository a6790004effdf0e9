import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTITION_FETCH_BYTES, fetchSettings } from './fetch-settings.ts';
import { IDLE_FETCH_WAIT_MS } from './offsets.ts';

describe('fetchSettings', () => {
  it('answers on the first record by default', () => {
    expect(fetchSettings(undefined)).toEqual({ maxWaitTimeInMs: IDLE_FETCH_WAIT_MS });
  });

  it('lets one partition alone fill a bulk fetch, so a hot partition never waits out maxWait', () => {
    for (const minBytes of [1, 65_536, DEFAULT_PARTITION_FETCH_BYTES, 4 * DEFAULT_PARTITION_FETCH_BYTES]) {
      const settings = fetchSettings({ minBytes, maxWaitMs: 1_000 });
      expect(settings.minBytes).toBe(minBytes);
      expect(settings.maxWaitTimeInMs).toBe(1_000);
      expect(settings.maxBytesPerPartition).toBe(Math.max(minBytes, DEFAULT_PARTITION_FETCH_BYTES));
    }
  });
});
