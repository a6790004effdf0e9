import { MongoNetworkError } from 'mongodb';
import type { IndexDefinition } from '@herald/read-models';
import { retry } from '@herald/retry';
import { logicalCollection, storeAdapter } from './store/store-adapter.ts';
import { driverDb, type Store } from './store-handle.ts';

/** Collections the API and CLI write directly (admin data, not projections). */
export const ADMIN_COLLECTIONS = {
  projects: 'projects',
  apiKeys: 'api_keys',
  idempotencyKeys: 'idempotency_keys',
  providerCredentials: 'provider_credentials',
  /** Sends waiting for their time (send_at, or one document per local-time slot), ids and due times only: the scheduler fires them (services/delivery). */
  deliverySchedules: 'delivery_schedules',
  /** The request of each scheduled send, stored once for all its slots (services/delivery). */
  deliveryRequests: 'delivery_requests',
  /** Which version of each read model readers use (see read-models.ts). */
  readModelVersions: 'read_model_versions',
  /** Webhook registrations with their secrets, positions and delivery status (API writes, the webhooks service reads; docs/webhooks.md). */
  webhooks: 'webhooks',
  /** Webhook deliveries given up after WEBHOOK_DEAD_LETTER_AFTER_MS (docs/webhooks.md). */
  webhookDeadLetters: 'webhook_dead_letters',
  /** Frequency cap state: the campaign pushes each device (or user) took within its project's cap window (services/delivery, docs/internals/campaign-control.md). */
  frequencyCaps: 'frequency_caps',
  /** Message templates: one head per template (name, latest version number), API-written (docs/guides/templates.md). */
  templates: 'templates',
  /** Each immutable version of a template's content; a send copies the version it uses into its event. */
  templateVersions: 'template_versions',
  /** Saved segments: one head per segment (name, latest version number), API-written (docs/guides/targets.md). */
  segments: 'segments',
  /** Each immutable version of a segment's filter; a send pins the versions it uses in its event. */
  segmentVersions: 'segment_versions',
  /** The console's drafts: sends being composed, named, per project, API-written (docs/guides/console.md). */
  drafts: 'drafts',
  /** Live Activity tokens, children of iOS devices, API-written (docs/guides/live-activities.md). */
  liveActivityTokens: 'live_activity_tokens',
  /** The last aps.timestamp given to each Live Activity, so they rise across API instances (docs/guides/live-activities.md). */
  liveActivityClocks: 'live_activity_clocks',
  /** Each Live Activity push request and what it came to, for GET /api/v1/live-activities/{id} (docs/guides/live-activities.md). */
  liveActivitySends: 'live_activity_sends',
} as const;

// Read model names live with the read models; the store keeps their versions (read-models.ts).
export { READ_MODELS, type ReadModelName } from '@herald/read-models';

/** The indexes the admin collections' queries need (read models declare theirs with their projection); created at start, idempotently. */
// docs/internals/indexes.md lists which query each one serves and who issues it.
export const ADMIN_INDEXES: Readonly<Record<string, IndexDefinition[]>> = {
  [ADMIN_COLLECTIONS.projects]: [
    { key: { name: 1 }, name: 'by_name' },
    { key: { created_at: 1 }, name: 'by_created' },
  ],
  [ADMIN_COLLECTIONS.apiKeys]: [{ key: { project_id: 1, created_at: 1 }, name: 'by_project_created' }],
  [ADMIN_COLLECTIONS.idempotencyKeys]: [{ key: { project_id: 1, key: 1 }, name: 'by_project_key' }],
  // The scheduler's look: the earliest pending schedules (due_key is due_at as text: the local store pages through strings).
  [ADMIN_COLLECTIONS.deliverySchedules]: [
    { key: { state: 1, due_key: 1, _id: 1 }, name: 'by_state_due_key' },
    { key: { notification_id: 1 }, name: 'by_notification' },
  ],
  // Pruning what can no longer fire.
  [ADMIN_COLLECTIONS.deliveryRequests]: [{ key: { expires_at: 1 }, name: 'by_expiry' }],
  // GET /api/v1/webhooks: a project's webhooks in creation order; dead letters per webhook.
  [ADMIN_COLLECTIONS.webhooks]: [{ key: { project_id: 1, created_at: 1 }, name: 'by_project_created' }],
  [ADMIN_COLLECTIONS.webhookDeadLetters]: [{ key: { webhook_id: 1, at: 1 }, name: 'by_webhook_at' }],
  // GET /api/v1/templates: a project's templates in creation order; a template's versions, newest first (and its newest).
  [ADMIN_COLLECTIONS.templates]: [{ key: { project_id: 1, created_at: 1 }, name: 'by_project_created' }],
  [ADMIN_COLLECTIONS.templateVersions]: [{ key: { template_id: 1, version: 1 }, name: 'by_template_version' }],
  // GET /api/v1/segments: a project's segments in creation order; a segment's newest version.
  [ADMIN_COLLECTIONS.segments]: [{ key: { project_id: 1, created_at: 1 }, name: 'by_project_created' }],
  [ADMIN_COLLECTIONS.segmentVersions]: [{ key: { segment_id: 1, version: 1 }, name: 'by_segment_version' }],
  // GET /api/v1/drafts: a project's drafts, the most recently saved first.
  [ADMIN_COLLECTIONS.drafts]: [{ key: { project_id: 1, updated_at: -1 }, name: 'by_project_updated' }],
  // A device's Live Activity tokens (listing, the per-device bound); an activity's update tokens (its sends, its end).
  [ADMIN_COLLECTIONS.liveActivityTokens]: [
    { key: { project_id: 1, device_id: 1, created_at: 1 }, name: 'by_project_device_created' },
    { key: { project_id: 1, activity_id: 1 }, name: 'by_project_activity' },
    // An ended activity's update tokens waiting for its dismissal date (the sweeper's look).
    { key: { remove_at: 1 }, name: 'by_remove_at', partialFilterExpression: { remove_at: { $exists: true } } },
    // A start to topics or filters: the project's push-to-start tokens of one attributes type, in pages by id.
    { key: { project_id: 1, kind: 1, attributes_type: 1, _id: 1 }, name: 'by_project_kind_type' },
  ],
  // The per-activity rate: an activity's newer update requests and its latest push; explain: a device's latest pushes.
  [ADMIN_COLLECTIONS.liveActivitySends]: [
    { key: { project_id: 1, activity_id: 1, timestamp: 1 }, name: 'by_project_activity_timestamp' },
    { key: { project_id: 1, 'outcomes.device_id': 1, created_at: -1 }, name: 'by_project_outcome_device_newest' },
  ],
};

/**
 * Creates the missing indexes of a collection (for a read model: its
 * versioned collection) that the store uses: all of them on MongoDB, the
 * ones its SQL reads through on the local FerretDB (store/ferretdb-store.ts).
 * Only missing ones: FerretDB 1.24 panics (and drops the connection) on
 * `createIndexes` for some indexes that already exist. Each collection's
 * indexes have one owner (admin collections: the API and CLI; read models:
 * the projector) so two processes rarely race; if they do, the dropped
 * connection is retried.
 */
export async function ensureIndexes(store: Store, collectionName: string, indexes: readonly IndexDefinition[]): Promise<void> {
  const db = driverDb(store);
  const wanted = (await storeAdapter(db)).indexesFor(logicalCollection(collectionName), indexes);
  if (wanted.length === 0) return;
  const collection = db.collection(collectionName);
  const createMissing = async () => {
    // listIndexes fails on a collection that does not exist yet: then every index is missing.
    const existing: Array<{ name?: unknown }> = await collection.listIndexes().toArray().catch(() => []);
    const present = new Set(existing.map((index) => index.name));
    const missing = wanted.filter((index) => !present.has(index.name));
    if (missing.length > 0) await collection.createIndexes(missing);
  };
  // Six attempts; the waits stay under the 100 ms, 200 ms, ... 1.6 s they always had.
  await retry(createMissing, { attempts: 6, backoff: { minMs: 100, maxMs: 1_600, floorMs: 50 }, classify: (error) => error instanceof MongoNetworkError });
}

/** The indexes of the admin collections (projects, API keys, idempotency keys). */
export async function ensureAdminIndexes(store: Store): Promise<void> {
  for (const name of Object.values(ADMIN_COLLECTIONS)) await ensureIndexes(store, name, ADMIN_INDEXES[name] ?? []);
}

/** Index declarations that repeat a name or a key pattern (each would fail or waste a write path): for tests of every declaration. */
export function repeatedIndexes(indexes: readonly IndexDefinition[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const label of indexes.flatMap((index) => [`name ${String(index.name)}`, `key ${JSON.stringify(index.key)}`])) {
    if (seen.has(label)) repeated.push(label);
    seen.add(label);
  }
  return repeated;
}
