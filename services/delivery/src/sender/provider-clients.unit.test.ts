import { describe, expect, it } from 'vitest';
import { createTestApnsKey } from '@herald/fake-providers';
import { createLogger } from '@herald/log';
import { ProviderClients } from './provider-clients.ts';

describe('ProviderClients', () => {
  it('gives concurrent batches of a cold project one client, from one credential lookup', async () => {
    const key = createTestApnsKey();
    let lookups = 0;
    const clients = new ProviderClients({
      logger: createLogger({ name: 'test', level: 'silent' }),
      apnsEndpoint: 'https://127.0.0.1:9',
      credentials: {
        get: async () => {
          lookups += 1;
          return { apns: { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: 'com.example.app', sandbox: true } };
        },
      },
    });
    try {
      const got = await Promise.all(Array.from({ length: 5 }, () => clients.apns('project-1')));
      expect(new Set(got).size).toBe(1);
      expect(got[0]).toBeDefined();
      expect(lookups).toBe(1);
      expect(await clients.fcm('project-1')).toBeUndefined();
    } finally {
      await clients.closeAll();
    }
  });
});
