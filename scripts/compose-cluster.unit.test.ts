import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml's `cluster` profile: three Kafka brokers forming one
 * KRaft quorum with RF 3 / min ISR 2 for every topic (internal ones too), and
 * Herald's services bootstrapping from all three with the same topic settings.
 * Read through `docker compose config` where Docker Compose runs, else from
 * the YAML itself (anchors and `<<` merges resolved as Compose does).
 */
const composeFile = resolve(dirname(fileURLToPath(import.meta.url)), '../docker-compose.yml');

interface Service {
  profiles?: string[];
  environment?: Record<string, unknown>;
  depends_on?: Record<string, unknown>;
}

function composeModel(): { services: Record<string, Service> } {
  try {
    const json = execFileSync('docker', ['compose', '-f', composeFile, '--profile', 'cluster', 'config', '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, HERALD_SECRET_KEY: 'x'.repeat(44) } });
    return JSON.parse(json) as { services: Record<string, Service> };
  } catch {
    return parse(readFileSync(composeFile, 'utf8'), { merge: true }) as { services: Record<string, Service> };
  }
}

const env = (service: Service) => Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value)]));

describe('docker-compose.yml, profile cluster', () => {
  const { services } = composeModel();
  const brokers = ['kafka-1', 'kafka-2', 'kafka-3'];

  it('runs three brokers of one cluster id and one static quorum, each its own node id, address and volume', () => {
    const settings = brokers.map((name) => env(services[name]!));
    expect(settings.map((s) => s.KAFKA_NODE_ID)).toEqual(['1', '2', '3']);
    expect(settings.map((s) => s.KAFKA_ADVERTISED_LISTENERS)).toEqual(brokers.map((name) => `PLAINTEXT://${name}:9092`));
    for (const s of settings) {
      expect(s.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe('1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093');
      expect(s.CLUSTER_ID).toBe(settings[0]!.CLUSTER_ID);
      expect(s.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    }
    expect(new Set(brokers.map((name) => JSON.stringify((services[name] as { volumes?: unknown }).volumes))).size).toBe(3);
    for (const name of brokers) expect(services[name]!.profiles).toEqual(['cluster']);
  });

  it('keeps three copies with two in sync, for new topics and for consumer offsets and transaction state', () => {
    for (const name of brokers) {
      expect(env(services[name]!)).toMatchObject({
        KAFKA_DEFAULT_REPLICATION_FACTOR: '3',
        KAFKA_MIN_INSYNC_REPLICAS: '2',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '2',
      });
    }
  });

  it("gives Herald's services every broker and the same topic settings, waiting for all three brokers", () => {
    for (const name of ['api-cluster', 'projector-cluster', 'delivery-cluster', 'webhooks-cluster']) {
      const service = services[name]!;
      expect(service.profiles).toEqual(['cluster']);
      expect(env(service)).toMatchObject({ KAFKA_BROKERS: 'kafka-1:9092,kafka-2:9092,kafka-3:9092', KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' });
      expect(Object.keys(service.depends_on ?? {}).sort()).toEqual([...brokers, 'mongo']);
    }
  });

  it('leaves the default stack on its one broker', () => {
    for (const name of ['kafka', 'mongo', 'api', 'projector', 'delivery', 'webhooks']) expect(services[name]!.profiles).toBeUndefined();
    expect(env(services.api!).KAFKA_BROKERS).toBe('kafka:9092');
  });
});
