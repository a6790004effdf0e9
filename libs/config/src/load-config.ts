import Type, { type Static, type TObject, type TProperties } from 'typebox';
import Value from 'typebox/value';
import { ConfigError, validationMessages } from '@herald/errors';

/** Settings every Herald process shares. Unset addresses mean "the local infrastructure `npm start` runs". */
export const CommonConfig = Type.Object({
  KAFKA_BROKERS: Type.String({ default: '127.0.0.1:9092', pattern: '^[^,\\s]+(,[^,\\s]+)*$', description: 'comma-separated bootstrap brokers (the default is the local Kafka `npm start` runs)' }),
  KAFKA_TOPIC_PREFIX: Type.String({ default: '', pattern: '^[A-Za-z0-9._-]*$', description: 'prepended to every topic and consumer-group name (several installations on one cluster)' }),
  MONGO_URL: Type.String({ default: 'mongodb://127.0.0.1:27017/herald', pattern: '^mongodb(\\+srv)?://', description: 'MongoDB connection string; the database is the one in the path (credentials are stripped from the start-up log)' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'pino log level' }),
  KAFKA_REPLICATION_FACTOR: Type.Optional(Type.Integer({ minimum: 1, description: 'copies of each partition of the topics Herald creates; a start refuses to run when an existing event or work topic has fewer (docs/operations/cluster.md); unset: 3 on a cluster of three or more brokers, else 1' })),
  KAFKA_MIN_INSYNC_REPLICAS: Type.Optional(Type.Integer({ minimum: 1, description: 'min.insync.replicas of the topics Herald creates (producers send with acks=all); a start refuses to run when an existing topic has a lower one; unset: 2 on a cluster of three or more brokers, else 1' })),
});
export type CommonConfig = Static<typeof CommonConfig>;

/** Where a process without its own HTTP API serves `/metrics` (0: any free port). */
export function metricsSettings(defaultPort: number) {
  return {
    METRICS_HOST: Type.String({ default: '127.0.0.1', description: 'address /metrics is served on' }),
    METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort, description: 'port /metrics is served on (0: any free port; npm start sets API_METRICS_PORT, PROJECTOR_METRICS_PORT, DELIVERY_METRICS_PORT, WEBHOOKS_METRICS_PORT)' }),
  };
}

/** Names of settings that hold secrets: never printed, even at start-up. */
export const SECRET_SETTINGS = new Set(['HERALD_SECRET_KEY', 'MONGO_URL', 'HERALD_ADMIN_TOKEN']);

/**
 * Reads a service's settings from an environment object: converts strings to
 * the schema's types, fills defaults, and reports every problem at once.
 * The result is frozen; pass it down, never read process.env elsewhere.
 */
export function loadConfig<Properties extends TProperties>(
  schema: TObject<Properties>,
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Static<TObject<Properties>>> {
  const known: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const raw = env[key];
    if (raw !== undefined && raw !== '') known[key] = raw;
  }
  const value = Value.Default(schema, Value.Convert(schema, known));
  const problems = validationMessages(Value.Errors(schema, value));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(value as Static<TObject<Properties>>);
}

/** A copy safe to log: secret values replaced, credentials stripped from URLs. */
export function redactConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key === 'MONGO_URL' && typeof value === 'string') copy[key] = value.replace(/\/\/[^@/]*@/, '//***@');
    else copy[key] = SECRET_SETTINGS.has(key) ? '[redacted]' : value;
  }
  return copy;
}
