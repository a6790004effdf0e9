import { randomBytes } from 'node:crypto';
import type { StoredOffset, WebhookSecret, WebhookStatus } from '@herald/mongo';

// The documents and their queries live with the store (libs/mongo queries/webhooks.ts).
export { WebhookStore, type StoredOffset, type WebhookDeadLetter, type WebhookDocument, type WebhookSecret, type WebhookStatus } from '@herald/mongo';

export const EMPTY_WEBHOOK_STATUS: WebhookStatus = { lag: 0, delivered_events: 0, failed_attempts: 0, dead_letters: 0, last_success_at: null, last_failure: null, updated_at: null };

/** A new signing secret (`whsec_` + 32 random bytes, base64url): shown once. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The secrets that sign at `now`: the current one, and the previous one until its expiry. */
export function signingSecrets(secrets: readonly WebhookSecret[], now: Date): string[] {
  return secrets.filter((secret) => secret.expires_at === undefined || secret.expires_at > now).map((secret) => secret.value);
}

/** Stored offsets → `{topic: {partition: offset}}` (the log reader's and the API's shape). */
export function positionOf(offsets: readonly StoredOffset[]): Record<string, Record<number, number>> {
  const position: Record<string, Record<number, number>> = {};
  for (const { topic, partition, offset } of offsets) (position[topic] ??= {})[partition] = offset;
  return position;
}

export function storedOffsets(position: Readonly<Record<string, Readonly<Record<number, number>>>>): StoredOffset[] {
  return Object.entries(position).flatMap(([topic, partitions]) => Object.entries(partitions).map(([partition, offset]) => ({ topic, partition: Number(partition), offset })));
}
