import { randomUUID } from 'node:crypto';
import { decodeJwt, verifyJwtSignature } from './jwt.ts';
import { checkLiveActivityPush, liveActivityBundleId } from './live-activity-checks.ts';
import type { RuleBook, TokenRuleBase } from './rules.ts';

/**
 * The request checks of the fake APNs, after Apple's "Sending notification
 * requests to APNs" and "Handling notification responses from APNs":
 * https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
 * https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
 */

/** A provider signing key the fake accepts: Apple knows the public half by key id and team. */
export interface ApnsKeyRegistration {
  keyId: string;
  teamId: string;
  publicKeyPem: string;
}

/** Injected failure, e.g. `{ prefix: 'unregistered-', status: 410, reason: 'Unregistered' }`. */
export interface ApnsRule extends TokenRuleBase {
  status: number;
  reason: string;
  /** For 410: ms since epoch in the body; defaults to the time of the answer. */
  timestamp?: number;
}

export interface ApnsRequestView {
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

export type ApnsAnswer =
  | { kind: 'accepted'; apnsId: string; token: string }
  | { kind: 'rejected'; status: number; apnsId: string; reason: string; timestamp?: number; retryAfterSeconds?: number };

export interface ApnsCheckContext {
  keys: ReadonlyMap<string, ApnsKeyRegistration>;
  /** Bundle ids (apns-topic) the fake accepts; undefined accepts any. */
  topics: ReadonlySet<string> | undefined;
  rules: RuleBook<ApnsRule>;
  now: number;
  /**
   * Provider tokens that already checked out (key, team, signature), with
   * their `iat`. A provider reuses one token on a connection for up to an
   * hour, so the fake keeps one such cache per HTTP/2 session and verifies
   * each token once there, not on every push; its age is still checked every
   * time. Absent: every request is verified in full.
   */
  verifiedTokens?: Map<string, number>;
  /**
   * The last `aps.timestamp` accepted per Live Activity token (a token is one
   * activity's, or one app's push-to-start): a push must carry a later one.
   * Absent: timestamps are checked for presence only.
   */
  liveActivityTimestamps?: Map<string, number>;
}

const PUSH_TYPES = new Set(['alert', 'background', 'location', 'voip', 'complication', 'fileprovider', 'mdm', 'liveactivity', 'pushtotalk', 'widgets']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Apple: 4 KB for regular pushes, 5 KB for VoIP. */
const MAX_PAYLOAD = 4096;
const MAX_VOIP_PAYLOAD = 5120;
/** Apple rejects provider tokens older than one hour with ExpiredProviderToken. */
const TOKEN_MAX_AGE_SECONDS = 3600;

/** Sessions hold few tokens; a client rotating tokens on one session must not grow the cache without bound. */
const MAX_CACHED_TOKENS = 64;

/** The verified token's `iat`, or the `reason` it does not authenticate. */
function verifyToken(token: string, context: ApnsCheckContext): number | string {
  const jwt = decodeJwt(token);
  if (jwt === undefined) return 'InvalidProviderToken';
  const key = typeof jwt.header.kid === 'string' ? context.keys.get(jwt.header.kid) : undefined;
  if (key === undefined || jwt.payload.iss !== key.teamId) return 'InvalidProviderToken';
  if (!verifyJwtSignature(jwt, 'ES256', key.publicKeyPem)) return 'InvalidProviderToken';
  const issuedAt = jwt.payload.iat;
  return typeof issuedAt === 'number' ? issuedAt : 'InvalidProviderToken';
}

/** `reason` when the JWT does not authenticate, undefined when it does. */
function authProblem(authorization: string | undefined, context: ApnsCheckContext): string | undefined {
  if (authorization === undefined) return 'MissingProviderToken';
  if (authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return 'InvalidProviderToken';
  const token = authorization.slice(7);
  const cache = context.verifiedTokens;
  let issuedAt = cache?.get(token);
  if (issuedAt === undefined) {
    const verified = verifyToken(token, context);
    if (typeof verified === 'string') return verified;
    issuedAt = verified;
    if (cache !== undefined) {
      if (cache.size >= MAX_CACHED_TOKENS) cache.clear();
      cache.set(token, issuedAt);
    }
  }
  if (context.now / 1000 - issuedAt > TOKEN_MAX_AGE_SECONDS) return 'ExpiredProviderToken';
  return undefined;
}

function headerProblem(headers: Readonly<Record<string, string>>, context: ApnsCheckContext): string | undefined {
  const topic = headers['apns-topic'];
  if (topic === undefined || topic === '') return 'MissingTopic';
  const pushType = headers['apns-push-type'];
  // A Live Activity push names the bundle id with Apple's suffix; the bundle id is what must be allowed.
  const bundleId = pushType === 'liveactivity' ? liveActivityBundleId(topic) : topic;
  if (bundleId === undefined) return 'BadTopic';
  if (context.topics !== undefined && !context.topics.has(bundleId)) return 'TopicDisallowed';
  if (pushType === undefined || !PUSH_TYPES.has(pushType)) return 'InvalidPushType';
  const priority = headers['apns-priority'];
  if (priority !== undefined && !['1', '5', '10'].includes(priority)) return 'BadPriority';
  const id = headers['apns-id'];
  if (id !== undefined && !UUID.test(id)) return 'BadMessageId';
  const collapseId = headers['apns-collapse-id'];
  if (collapseId !== undefined && Buffer.byteLength(collapseId) > 64) return 'BadCollapseId';
  const expiration = headers['apns-expiration'];
  if (expiration !== undefined && !/^\d+$/.test(expiration)) return 'BadExpirationDate';
  return undefined;
}

/** Decides the answer to one push request; the only state it touches is the rule book's use counts. */
export function checkApnsRequest(request: ApnsRequestView, context: ApnsCheckContext): ApnsAnswer {
  const apnsId = request.headers['apns-id'] !== undefined && UUID.test(request.headers['apns-id']) ? request.headers['apns-id'] : randomUUID();
  const fail = (status: number, reason: string): ApnsAnswer => ({ kind: 'rejected', status, apnsId, reason });
  if (request.method !== 'POST') return fail(405, 'MethodNotAllowed');
  const match = /^\/3\/device\/([^/?]*)$/.exec(request.path);
  if (match === null) return fail(404, 'BadPath');
  const raw = match[1] ?? '';
  const token = raw.includes('%') ? decodeURIComponent(raw) : raw;
  if (token === '') return fail(400, 'MissingDeviceToken');

  const auth = authProblem(request.headers.authorization, context);
  if (auth !== undefined) return fail(403, auth);
  const header = headerProblem(request.headers, context);
  if (header !== undefined) return fail(400, header);

  if (request.body.length === 0) return fail(400, 'PayloadEmpty');
  const limit = request.headers['apns-push-type'] === 'voip' ? MAX_VOIP_PAYLOAD : MAX_PAYLOAD;
  if (request.body.length > limit) return fail(413, 'PayloadTooLarge');

  const live =
    request.headers['apns-push-type'] === 'liveactivity'
      ? checkLiveActivityPush(request.headers['apns-topic'] ?? '', request.body, context.liveActivityTimestamps?.get(token))
      : undefined;
  if (live !== undefined && !live.ok) return fail(400, live.reason);

  const rule = context.rules.take(token);
  if (rule !== undefined) {
    return {
      kind: 'rejected',
      status: rule.status,
      apnsId,
      reason: rule.reason,
      ...(rule.status === 410 ? { timestamp: rule.timestamp ?? context.now } : {}),
      ...(rule.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: rule.retryAfterSeconds }),
    };
  }
  // Only a push the device got moves its activity on: an injected failure's retry may carry the same timestamp.
  if (live?.ok === true) context.liveActivityTimestamps?.set(token, live.timestamp);
  return { kind: 'accepted', apnsId, token };
}
