import type { DeliveryBatchV2, Provider } from '@herald/events';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/retry';
import type { SendPacer } from '../control/send-pace.ts';
import type { RetryPolicy } from './retry.ts';
import type { ProviderClients } from './provider-clients.ts';
import type { LaneGate } from './lane-gate.ts';
import type { SubscriptionLookup } from './webpush-sender.ts';

/** What a sender is given: its provider's clients, the control state it obeys, its lane, and its hooks. */
export interface SenderDeps {
  provider: Provider;
  clients: ProviderClients;
  /** Batches of a cancelled notification are reported `cancelled`, not sent. */
  isCancelled(notificationId: string): boolean;
  /** A paused notification's batches wait in place (heartbeating) until it is resumed, cancelled or expired. */
  isPaused?(notificationId: string): boolean;
  /** Resolves at the next control change (a paused batch rechecks at once). */
  changed?(): Promise<void>;
  /** Pushes per second this instance may send of the batch's notification (its share of the pace in effect); undefined: unpaced. */
  pacePerSecond?(batch: DeliveryBatchV2): number | undefined;
  /** Pushes per second this instance may send of the project's campaigns (its share of `herald projects budget`); undefined: no budget. Campaign lane only. */
  budgetPerSecond?(projectId: string): Promise<number | undefined>;
  /** The projects' buckets, shared by the process's APNs and FCM campaign senders (a project's budget covers both). */
  projectPacer?: SendPacer;
  policy: RetryPolicy;
  clock: Clock;
  logger: Logger;
  /** Batches sent at once (each client also bounds its own requests in flight). */
  concurrency?: number;
  /** Reports of the last this many batches are kept, to publish again (not send again) when a chunk's commit was lost. */
  recentReports?: number;
  observer?: SenderObserver;
  /**
   * Which work topics this sender consumes: express calls pre-empt campaign
   * calls through `gate`. The campaign and express lanes send a batch once
   * and hand its still-retryable devices to the retry lane, which retries
   * them in place (back-off, Retry-After, deadlines) among retrying batches only.
   */
  lane?: 'campaign' | 'express' | 'retry';
  /** Shared by both lanes of the provider in this process (lane-gate.ts). */
  gate?: LaneGate;
  /** The webpush sender: web devices' subscriptions by id (the devices read model, one query per batch). */
  webPushSubscriptions?: SubscriptionLookup;
  /** A provider pushed back on the project until `until` (429 with Retry-After): published as ProjectThrottled. Not given to the webpush sender: a push service's 429 holds back its origin only (webpush-client.ts). */
  onThrottled?(projectId: string, until: number, reason: string): void;
  /** Longest a batch waits out a provider's push-back before those waits count as failed attempts (default 10 min; a batch's `expires_at` comes first). */
  throttleMaxMs?: number;
}

/** How long a batch waits out a provider's push-back at most, by default. */
export const THROTTLE_MAX_MS = 10 * 60 * 1000;

/** Hooks for metrics. */
export interface SenderObserver {
  /** One provider send call (a batch, or its retry) took this long. */
  sent(provider: Provider, seconds: number): void;
  outcome(provider: Provider, outcome: string, count: number): void;
}
