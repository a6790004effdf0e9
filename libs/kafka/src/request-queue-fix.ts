import { createRequire } from 'node:module';

/** The part of kafkajs' (internal) RequestQueue the fix touches. */
interface RequestQueueLike {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs' own interval for re-checking a queue that holds requests. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
const FIXED = Symbol.for('herald.kafkajs.requestQueueFixed');

/**
 * kafkajs 2.2.4's RequestQueue re-arms a timer after every check, even with
 * nothing pending and no throttle: `throttledUntil` is -1, so the delay is
 * negative (Node clamps it to 1 ms, and Node 24 warns
 * `TimeoutNegativeWarning`). Every broker connection then runs a callback
 * every millisecond for ever: the largest part of an idle Herald process's
 * CPU (issue 17, docs/internals/idle.md). Upstream: tulios/kafkajs#1556, #1751, fix
 * proposed in #1667/#1768, unreleased. This is that fix: with nothing
 * pending, a timer is armed only while throttled (to re-check when the
 * throttle ends); a request that is queued later arms it again (`push`), and
 * a response re-checks the queue (`fulfillRequest`).
 */
export function scheduleCheckPendingRequests(this: RequestQueueLike): void {
  if (this.throttleCheckTimeoutId !== null) return;
  let delayMs = this.throttledUntil - Date.now();
  if (this.pending.length > 0) delayMs = delayMs > 0 ? delayMs : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (delayMs <= 0) return;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delayMs);
}

/** The kafkajs RequestQueue class this process uses (the module kafkajs itself loads). */
export function kafkajsRequestQueue(): { prototype: RequestQueueLike } {
  const require = createRequire(import.meta.url);
  return require('kafkajs/src/network/requestQueue/index.js') as { prototype: RequestQueueLike };
}

/** Replaces the looping method once per process (idempotent); createKafka calls it. */
export function fixKafkajsIdleLoop(queue: { prototype: RequestQueueLike } = kafkajsRequestQueue()): void {
  const prototype = queue.prototype as RequestQueueLike & { [FIXED]?: true };
  if (prototype[FIXED] === true) return;
  if (typeof prototype.scheduleCheckPendingRequests !== 'function') throw new Error('kafkajs RequestQueue has no scheduleCheckPendingRequests: check libs/kafka/src/request-queue-fix.ts against this kafkajs version');
  prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  prototype[FIXED] = true;
}
