import type { DeliveryBatchV2 } from '@herald/events';
import type { HandlerContext } from '@herald/kafka';
import { isRebalance, isRetriable } from '@herald/errors';
import { retry } from '@herald/retry';
import { buildApnsRequest, buildFcmMessage, buildHmsMessage, type PushMessage } from '@herald/push-payloads';
import type { DeviceTarget } from '../providers/push-message.ts';
import { sendWithRetry, type AttemptedResult } from './retry.ts';
import { THROTTLE_MAX_MS, type SenderDeps } from './sender-deps.ts';
import { sleepHeartbeating } from './waits.ts';
import { sendByContent, sendEachByContent } from './batch-contents.ts';
import { checkWebPushPayload, namesUnknownKey, webPushSend } from './webpush-sender.ts';

function pushMessage(batch: DeliveryBatchV2): PushMessage {
  const { message } = batch.data;
  return { notification_id: batch.data.notification_id, project_id: batch.project_id, ...message };
}

/** Wraps a provider send so each call's duration is observed. */
function timed<T>(deps: SenderDeps, send: () => Promise<T>): Promise<T> {
  const started = performance.now();
  return send().finally(() => deps.observer?.sent(deps.provider, (performance.now() - started) / 1000));
}

const isInfrastructure = (error: unknown) => isRetriable(error) || isRebalance(error);

/**
 * Waits out an infrastructure failure (the credential store down) in place
 * with back-off, heartbeating, so the chunk's other batches are not sent
 * again; a rebalance still stops it (the heartbeat throws).
 */
function untilAvailable<T>(deps: SenderDeps, context: HandlerContext, work: () => Promise<T>): Promise<T> {
  return retry(() => work(), {
    classify: (error) => isRetriable(error) && !isRebalance(error),
    backoff: deps.policy,
    clock: deps.clock,
    onRetry: async (error, attempt) => {
      deps.logger.warn({ err: error, attempt }, 'provider client not available; retrying');
      await context.heartbeat();
    },
  });
}

/** The batch's provider payload, built once, and the send to one set of its devices. */
export async function batchSender(deps: SenderDeps, batch: DeliveryBatchV2, context: HandlerContext): Promise<((devices: readonly DeviceTarget[]) => Promise<AttemptedResult[]>) | string> {
  const message = pushMessage(batch);
  const now = deps.clock.now();
  const expiresAt = batch.data.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(batch.data.expires_at);
  const hooks = {
    isInfrastructure,
    onFailedAttempt: (error: unknown, failures: number) => deps.logger.warn({ err: error, batch_id: batch.data.batch_id, failures, max: deps.policy.maxAttempts }, 'batch attempt failed'),
    onThrottled: (waitMs: number, reason: string) => {
      deps.logger.info({ batch_id: batch.data.batch_id, project_id: batch.project_id, wait_ms: waitMs, reason }, 'provider pushed back: waiting, not failing');
      deps.onThrottled?.(batch.project_id, deps.clock.now() + waitMs, reason);
    },
    throttleUntil: Math.min(expiresAt, now + (deps.throttleMaxMs ?? THROTTLE_MAX_MS)),
    handOff: deps.lane !== 'retry',
    ...(batch.data.retry === undefined ? {} : { sendsBefore: batch.data.retry.sends }),
  };
  // Waits (back-off, Retry-After) heartbeat, so a long push-back does not cost the partition.
  const clock = { ...deps.clock, sleep: (ms: number) => sleepHeartbeating(deps, context, ms) };
  const gated = <T>(call: () => Promise<T>): Promise<T> => (deps.gate === undefined ? call() : deps.lane === 'express' ? deps.gate.express(call) : deps.gate.campaign(call));
  // Express requests also go ahead of campaign requests already waiting inside the client for its send slots.
  const urgent = deps.lane === 'express';
  if (deps.provider === 'webpush') {
    let project = await untilAvailable(deps, context, () => deps.clients.webpush(batch.project_id));
    if (project === undefined) return NO_WEBPUSH_KEYS;
    const lookup = deps.webPushSubscriptions;
    if (lookup === undefined) throw new Error('the webpush sender needs webPushSubscriptions (the devices read model)');
    // One read of the batch's subscriptions (≤ 500 ids, one query), before any send: the store down is waited out here.
    const stored = new Map(await untilAvailable(deps, context, () => lookup(batch.project_id, batch.data.devices.map((device) => device.device_id))));
    // A browser that subscribed with a key generated after this process last read the project's keys: read them again, once.
    if (namesUnknownKey(project, stored.values())) project = (await untilAvailable(deps, context, () => deps.clients.webpush(batch.project_id, { fresh: true }))) ?? project;
    const send = webPushSend(project, batch, lookup, stored, deps.logger);
    const sendWeb = (devices: readonly DeviceTarget[], content: PushMessage | ((device: DeviceTarget) => PushMessage)) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => send(open, content))), deps.policy, clock, hooks);
    // The plaintext is built by the client once per send call; checked here so a message that can never be built fails without a send.
    const buildable = (content: PushMessage) => builtPayload(deps, batch, () => checkWebPushPayload(content));
    // Per-device content: one send for the whole batch, each device with its content's message (checked once per content).
    if (batch.data.contents !== undefined) return sendEachByContent(message, batch, buildable, sendWeb, PAYLOAD_BUILD_FAILED);
    if (buildable(message) === undefined) return PAYLOAD_BUILD_FAILED;
    return (devices) => sendWeb(devices, message);
  }
  if (deps.provider === 'hms') {
    const project = await untilAvailable(deps, context, () => deps.clients.hms(batch.project_id));
    if (project === undefined) return NO_HMS_CREDENTIALS;
    // The client builds the Push Kit body per call; built here once so a message that can never be built fails without a send.
    const sendHms = (devices: readonly DeviceTarget[], content: PushMessage) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => project.client.send(project.credential, open, content))), deps.policy, clock, hooks);
    const buildable = (content: PushMessage) => builtPayload(deps, batch, () => (buildHmsMessage(content), content));
    if (batch.data.contents !== undefined) return sendByContent(message, batch, buildable, sendHms, PAYLOAD_BUILD_FAILED);
    if (buildable(message) === undefined) return PAYLOAD_BUILD_FAILED;
    return (devices) => sendHms(devices, message);
  }
  if (deps.provider === 'apns') {
    const client = await untilAvailable(deps, context, () => deps.clients.apns(batch.project_id));
    if (client === undefined) return 'NoApnsCredentials';
    type ApnsPayload = ReturnType<typeof buildApnsRequest>;
    const sendApns = (devices: readonly DeviceTarget[], request: ApnsPayload | ((device: DeviceTarget) => ApnsPayload)) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => client.send(open, request, urgent))), deps.policy, clock, hooks);
    // Per-device content (a template send, localisations): one send for the whole batch, each device with its content's request (built once per content).
    if (batch.data.contents !== undefined) return sendEachByContent(message, batch, (content) => builtPayload(deps, batch, () => buildApnsRequest(content)), sendApns, PAYLOAD_BUILD_FAILED);
    const request = builtPayload(deps, batch, () => buildApnsRequest(message));
    if (request === undefined) return PAYLOAD_BUILD_FAILED;
    return (devices) => sendApns(devices, request);
  }
  const client = await untilAvailable(deps, context, () => deps.clients.fcm(batch.project_id));
  if (client === undefined) return 'NoFcmCredentials';
  type FcmPayload = ReturnType<typeof buildFcmMessage>;
  const sendFcm = (devices: readonly DeviceTarget[], payload: FcmPayload | ((device: DeviceTarget) => FcmPayload)) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => client.send(open, payload, urgent))), deps.policy, clock, hooks);
  // Per-device content: one sendEach for the whole batch, each device with its content's payload (built once per content).
  if (batch.data.contents !== undefined) return sendEachByContent(message, batch, (content) => builtPayload(deps, batch, () => buildFcmMessage(content)), sendFcm, PAYLOAD_BUILD_FAILED);
  const fcmMessage = builtPayload(deps, batch, () => buildFcmMessage(message));
  if (fcmMessage === undefined) return PAYLOAD_BUILD_FAILED;
  return (devices) => sendFcm(devices, fcmMessage);
}

/** The reason every device of a web batch gets when its project has no VAPID keys (`herald providers webpush --generate`). */
export const NO_WEBPUSH_KEYS = 'NoWebPushKeys';

/** The reason every device of a Huawei batch gets when its project has no Push Kit credential (`herald providers hms`). */
export const NO_HMS_CREDENTIALS = 'NoHmsCredentials';

/** The reason every device of a batch gets when its provider payload cannot be built. */
export const PAYLOAD_BUILD_FAILED = 'PayloadBuildFailed';

/** A payload that cannot be built now never can (it is pure over the batch): the batch fails, final, without a send. */
function builtPayload<T>(deps: SenderDeps, batch: DeliveryBatchV2, build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    deps.logger.warn({ err: error, batch_id: batch.data.batch_id, project_id: batch.project_id }, 'provider payload could not be built: batch failed, not retried');
    return undefined;
  }
}
