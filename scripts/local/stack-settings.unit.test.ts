import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restrictToOwner, serviceEnv, stackSettings, type StackSettings } from './stack-settings.ts';

describe('npm start settings', () => {
  it('takes ports and the state dir from the environment, with the documented defaults', () => {
    expect(stackSettings({}, '/repo/.herald')).toEqual({
      stateDir: '/repo/.herald',
      infraPorts: { kafkaPort: 9092, kafkaControllerPort: 9093, mongoPort: 27017 },
      kafkaBrokers: 1,
      metricsPorts: { api: 9100, projector: 9101, delivery: 9102, webhooks: 9103 },
    });
    const env = { HERALD_STATE_DIR: '/tmp/b', KAFKA_PORT: '19092', KAFKA_CONTROLLER_PORT: '19093', FERRETDB_PORT: '37017', API_METRICS_PORT: '19100', PROJECTOR_METRICS_PORT: '19101', DELIVERY_METRICS_PORT: '19102', WEBHOOKS_METRICS_PORT: '19103' };
    expect(stackSettings(env, '/repo/.herald')).toMatchObject({
      stateDir: '/tmp/b',
      infraPorts: { kafkaPort: 19092, kafkaControllerPort: 19093, mongoPort: 37017 },
      metricsPorts: { api: 19100, projector: 19101, delivery: 19102, webhooks: 19103 },
    });
    expect(stackSettings({ HERALD_KAFKA_BROKERS_LOCAL: '3' }, '/r')).toMatchObject({ kafkaBrokers: 3 });
    expect(stackSettings({ HERALD_KAFKA_BROKERS_LOCAL: 'three' }, '/r')).toEqual({ problems: ['HERALD_KAFKA_BROKERS_LOCAL must be a number of brokers from 1 to 9, not three'] });
    expect(stackSettings({ KAFKA_PORT: 'x', FERRETDB_PORT: '70000' }, '/r')).toEqual({
      problems: ['KAFKA_PORT must be a port number (1-65535), not x', 'FERRETDB_PORT must be a port number (1-65535), not 70000'],
    });
  });

  it('gives each service its metrics port, and the secret key only to delivery', () => {
    const settings = stackSettings({}, '/r') as StackSettings;
    const shared = { HERALD_SECRET_KEY: 'k', MONGO_URL: 'm', METRICS_PORT: '1' };
    expect(serviceEnv(shared, 'api', settings)).toEqual({ MONGO_URL: 'm', METRICS_PORT: '9100' });
    expect(serviceEnv(shared, 'projector', settings)).toEqual({ MONGO_URL: 'm', METRICS_PORT: '9101' });
    expect(serviceEnv(shared, 'delivery', settings)).toEqual({ MONGO_URL: 'm', METRICS_PORT: '9102', HERALD_SECRET_KEY: 'k' });
    expect(serviceEnv(shared, 'webhooks', settings)).toEqual({ MONGO_URL: 'm', METRICS_PORT: '9103' });
  });

  it('makes a tree readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-owner-'));
    try {
      await mkdir(join(dir, 'data', 'kafka'), { recursive: true, mode: 0o755 });
      await writeFile(join(dir, 'data', 'kafka', 'segment.log'), 'x', { mode: 0o644 });
      await writeFile(join(dir, 'secret.key'), 'x', { mode: 0o600 });
      await restrictToOwner(dir);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, 'data', 'kafka'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, 'data', 'kafka', 'segment.log'))).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'secret.key'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
