import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { ConfigError } from '@herald/errors';
import { CommonConfig, loadConfig, redactConfig } from './load-config.ts';

const ApiConfig = Type.Object({
  ...CommonConfig.properties,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HERALD_SECRET_KEY: Type.Optional(Type.String({ minLength: 32 })),
});

describe('loadConfig', () => {
  it('fills defaults and converts numbers', () => {
    const config = loadConfig(ApiConfig, { PORT: '8080', UNRELATED: 'x' });
    expect(config).toEqual({
      KAFKA_BROKERS: '127.0.0.1:9092',
      KAFKA_TOPIC_PREFIX: '',
      MONGO_URL: 'mongodb://127.0.0.1:27017/herald',
      LOG_LEVEL: 'info',
      PORT: 8080,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reports every problem at once', () => {
    let caught: unknown;
    try {
      loadConfig(ApiConfig, { PORT: 'eighty', LOG_LEVEL: 'loud', MONGO_URL: 'postgres://x', HERALD_SECRET_KEY: 'short' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const details = (caught as ConfigError).details.join('\n');
    for (const field of ['PORT', 'LOG_LEVEL', 'MONGO_URL', 'HERALD_SECRET_KEY']) expect(details).toContain(field);
  });

  it('redacts secrets and URL credentials', () => {
    expect(redactConfig({ HERALD_SECRET_KEY: 'k'.repeat(40), MONGO_URL: 'mongodb://user:pw@host/db', PORT: 1 })).toEqual({
      HERALD_SECRET_KEY: '[redacted]',
      MONGO_URL: 'mongodb://***@host/db',
      PORT: 1,
    });
  });
});
