import { canonicalLocale } from '@herald/audience';
import { deviceIdFor } from '@herald/events';
import type { AdminStore, Project } from '@herald/admin';
import { AppError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '@herald/errors';
import type { EventProducer } from '@herald/kafka';
import type { DeviceQueries, TopicQueries } from '@herald/mongo';
import type { DeviceDocument } from '@herald/read-models';
import { deviceTokenProblem } from '@herald/push-payloads';
import { isTimeZone } from '@herald/runtime';
import { currentUser, deviceBytes, planRegistration, type DeviceView, type RegisterDeviceInput, type TokenedRegistration } from '../domain/device-registration.ts';
import { prepareRegistration } from '../domain/web-registration.ts';
import type { WebPushKeyService } from './webpush-key-service.ts';
import type { DevicePolicy } from '../domain/device-policy.ts';
import { mayClaimExternalId, provenIdentifiers } from '../domain/identity-verification.ts';
import { mayRepointDevice } from '../domain/token-refresh.ts';
import { isDeleted } from '../domain/device-quota-rule.ts';
import type { DeviceQuota } from './device-quota.ts';
import { topicsToCreate } from './registration-guards.ts';

export interface RegisterRequest {
  correlationId?: string | undefined;
  /** The project of the caller's bearer key, when it sent a valid one. */
  bearerProjectId?: string | undefined;
  /** Throws (429) when the project's budget for new anonymous devices is spent; called only for such a device, before anything is published. */
  admitNewAnonymous?: (() => void) | undefined;
}

export interface Registered {
  device: DeviceView;
  /** A device new to the project (or back after the project deleted it) registered without its key: what the new-device budget counts. */
  newAnonymous: boolean;
}

export interface RegisterDeps {
  producer: EventProducer;
  admin: AdminStore;
  devices: DeviceQueries;
  topics: TopicQueries;
  policy: DevicePolicy;
  quota: DeviceQuota;
  /** The projects' VAPID public keys: a web device is recorded with the key its subscription was made with. */
  webPushKeys: WebPushKeyService;
}

/**
 * A device-facing registration, checked before anything is published: the
 * project exists; a token moves to a device only with proof (a refresh's
 * `previous_token` or the bearer key), the device's first token included;
 * the token has its provider's form (device-token.ts);
 * a user link needs proof; new topics obey the topic rules
 * (registration-guards); the device stays within the byte bound and the
 * project within its device quota (anonymous devices within their share of
 * it). Answers the device as the read model will show it.
 */
export async function registerDevice(
  deps: RegisterDeps,
  body: RegisterDeviceInput,
  request: RegisterRequest,
): Promise<Registered> {
  // A web device's token is its subscription's endpoint (web-registration.ts); the keys are read only for web devices.
  const keys = body.platform === 'web' && body.subscription !== undefined && body.token === undefined ? await deps.webPushKeys.summary(body.project_id) : undefined;
  const prepared = prepareRegistration(body, keys, deps.policy.webPushLocal === true, deps.policy.webPushHosts);
  if (!prepared.ok) throw prepared.status === 422 ? new UnprocessableError(prepared.problems) : new ValidationError(prepared.problems);
  const { input, subscription } = prepared;
  // A token its provider can never accept would fail every send to it (and some, Node refuses before sending).
  const tokenProblem = input.platform === 'web' ? undefined : deviceTokenProblem(input.platform, input.token);
  if (tokenProblem !== undefined) throw new ValidationError([tokenProblem]);
  const project = await deps.admin.findProject(input.project_id);
  if (project === null) throw new NotFoundError(`project_id ${input.project_id} does not exist`);
  const existing = (await continuedDevice(deps.devices, input, request.bearerProjectId)) ?? undefined;
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) throw new ValidationError([`timezone ${input.timezone} is not an IANA time zone name (e.g. Europe/Paris)`]);
  if (input.locale !== undefined && canonicalLocale(input.locale) === undefined) throw new ValidationError([`locale ${JSON.stringify(input.locale)} is not a BCP 47 language tag (e.g. fr, fr-CA)`]);
  if (typeof input.external_id === 'string') await checkExternalIdClaim(deps.admin, input, existing, request.bearerProjectId);

  const createTopics = input.topics === undefined ? [] : await topicsToCreate(deps, input.project_id, project.device_topics === true, [...new Set(input.topics)]);

  const anonymous = request.bearerProjectId !== input.project_id;
  const proven = input.identifiers === undefined ? [] : await identifierProofs(deps.admin, input, input.identifiers, !anonymous);
  const { device, events } = planRegistration(input, existing, { createTopics, correlationId: request.correlationId, now: new Date(), anonymous, provenIdentifiers: proven, subscription });
  const bytes = deviceBytes(device);
  if (bytes > deps.policy.maxDeviceBytes) {
    throw new ValidationError([
      `the device would hold ${bytes} bytes of token, identifiers, metadata, topics, external_id and timezone (as JSON); a device holds at most ${deps.policy.maxDeviceBytes} (DEVICE_MAX_BYTES)`,
    ]);
  }
  // A device the project deleted no longer counts, so registering it again takes room like a new one.
  const arrives = existing === undefined || isDeleted(existing);
  if (arrives) {
    await deps.quota.assertRoom(deps.devices, input.project_id, quotaOf(project, deps.policy), anonymous);
    if (anonymous) request.admitNewAnonymous?.();
  }
  await deps.producer.publish(events);
  if (arrives) deps.quota.added(input.project_id, anonymous);
  return { device, newAnonymous: arrives && anonymous };
}

function quotaOf(project: Project, policy: DevicePolicy): { quota: number; anonymousPercent: number } {
  return { quota: project.device_quota ?? policy.projectDeviceQuota, anonymousPercent: policy.anonymousDevicePercent };
}

/**
 * The device a registration continues: named by a token refresh (which needs
 * proof to give it another token), or already holding the token. A token that
 * was a device's first one (its id is derived from it) while the device now
 * holds another is refused: taking it back would move the device without a
 * refresh's proof.
 */
async function continuedDevice(devices: DeviceQueries, input: TokenedRegistration, bearerProjectId: string | undefined): Promise<DeviceDocument | null> {
  if (input.device_id !== undefined) {
    const named = await devices.device(input.project_id, input.device_id);
    if (named === null) throw new NotFoundError(`device_id ${input.device_id} does not exist in this project`);
    const claim = { currentToken: named.token, newToken: input.token, previousToken: input.previous_token, bearerProjectId, projectId: input.project_id };
    if (!mayRepointDevice(claim)) {
      throw new ForbiddenError("previous_token must equal the device's current token (or send the project's bearer key) to give device_id a new token");
    }
    // One active device per token: two would each get every push sent to it.
    if (input.token !== named.token && (await devices.tokenHeldByAnother(input.project_id, input.token, named._id))) {
      throw new AppError('CONFLICT', 'token is held by another active device of this project: a token belongs to one device (delete that device first, with the API key)');
    }
    return named;
  }
  const holder = await devices.deviceByToken(input.project_id, input.token);
  if (holder !== null) return holder;
  if (await devices.deviceExists(input.project_id, deviceIdFor(input.project_id, input.token))) {
    throw new AppError('CONFLICT', 'token was the first token of a device that has since moved to another: to move it back, send device_id with previous_token (its current token) or the API key');
  }
  return null;
}

async function identifierProofs(admin: AdminStore, input: RegisterDeviceInput, identifiers: Record<string, string>, keyed: boolean): Promise<string[]> {
  if (keyed) return provenIdentifiers({ identifiers, hashes: undefined, keyed, verification: { enabled: false } });
  const verification = (await admin.identityVerification(input.project_id)) ?? { enabled: false as const };
  return provenIdentifiers({ identifiers, hashes: input.identifier_hashes, keyed, verification });
}

async function checkExternalIdClaim(admin: AdminStore, input: RegisterDeviceInput, existing: DeviceDocument | undefined, bearerProjectId: string | undefined): Promise<void> {
  const verification = await admin.identityVerification(input.project_id);
  const claim = {
    externalId: input.external_id as string,
    externalIdHash: input.external_id_hash,
    current: currentUser(existing),
    bearerProjectId,
    projectId: input.project_id,
    verification: verification ?? { enabled: false as const },
  };
  if (!mayClaimExternalId(claim)) {
    throw new ForbiddenError(
      "external_id needs proof that the caller may speak for that user: the project's bearer key, or (with identity verification on) external_id_hash, the HMAC-SHA256 of \"external_id:\" + external_id under the device-auth secret",
    );
  }
}
