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

  it("shares one Push Kit client over projects, each with its own credential, and none for a project without one", async () => {
    const stored: Record<string, { hms?: { appId: string; clientId: string; clientSecret: string } }> = {
      a: { hms: { appId: '101', clientId: '201', clientSecret: 'secret-a-123' } },
      b: { hms: { appId: '102', clientId: '202', clientSecret: 'secret-b-123' } },
      c: {},
    };
    const clients = new ProviderClients({
      logger: createLogger({ name: 'test', level: 'silent' }),
      credentials: { get: async (projectId) => stored[projectId]! },
      hms: { endpoint: 'https://127.0.0.1:9', tokenEndpoint: 'https://127.0.0.1:9/token', maxInFlight: 2, timeoutMs: 1000 },
    });
    try {
      const [a, b, c] = await Promise.all([clients.hms('a'), clients.hms('b'), clients.hms('c')]);
      expect(a!.client).toBe(b!.client);
      expect([a!.credential.appId, b!.credential.appId]).toEqual(['101', '102']);
      expect(c).toBeUndefined();
    } finally {
      await clients.closeAll();
    }
  });

  it('gives no Push Kit client in a process without the hms settings (one not running the hms role)', async () => {
    const clients = new ProviderClients({
      logger: createLogger({ name: 'test', level: 'silent' }),
      credentials: { get: async () => ({ hms: { appId: '101', clientId: '201', clientSecret: 'secret-a-123' } }) },
    });
    try {
      expect(await clients.hms('a')).toBeUndefined();
    } finally {
      await clients.closeAll();
    }
  });
});
