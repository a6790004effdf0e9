import Type from 'typebox';
import { CommonConfig, metricsSettings } from '@herald/config';

export const WebhooksConfig = Type.Object({
  ...CommonConfig.properties,
  ...metricsSettings(9103),
  WEBHOOKS_LOCAL: Type.Enum(['on', 'off'], { default: 'off', description: 'local mode (npm start sets it): webhooks may call http:// and loopback addresses (never private or link-local ones)' }),
  WEBHOOK_DEAD_LETTER_AFTER_MS: Type.Integer({ minimum: 0, default: 3_600_000, description: 'a webhook delivery failing this long (from its first failure) is dead-lettered and the endpoint goes on' }),
  WEBHOOK_RETRY_MIN_MS: Type.Integer({ minimum: 10, default: 500, description: 'first wait before a failed webhook request is retried (doubling, with jitter)' }),
  WEBHOOK_RETRY_MAX_MS: Type.Integer({ minimum: 10, default: 60_000, description: 'longest wait between two attempts of a webhook request' }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000, description: 'a webhook request (lookup, connect, answer) unanswered this long fails' }),
  WEBHOOK_MAX_RESPONSE_BYTES: Type.Integer({ minimum: 0, default: 65_536, description: 'response bytes read from a webhook endpoint at most' }),
  WEBHOOK_REFRESH_MS: Type.Integer({ minimum: 100, default: 2_000, description: 'how often the webhooks service reads registrations again (new, changed, deleted, replayed) and measures lag' }),
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
});
