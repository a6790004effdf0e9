/**
 * What the reasons on failed and invalid receipts mean: APNs' reason codes,
 * FCM's error codes, Web Push and Huawei Push Kit outcomes, and Herald's own. Shown beside the counts in a report.
 */
const MEANINGS: Record<string, string> = {
  // APNs (Apple's "Handling notification responses from APNs")
  BadDeviceToken: 'The token is not a valid APNs token (or is for the other environment: sandbox vs production). The device was deactivated.',
  Unregistered: 'The app was uninstalled or the token is no longer valid for the topic. The device was deactivated.',
  ExpiredToken: 'The token has expired. The device was deactivated.',
  DeviceTokenNotForTopic: "The token does not belong to the app's bundle id (apns-topic): check the project's APNs bundle id.",
  TopicDisallowed: 'Pushing to this topic (bundle id) is not allowed with these credentials.',
  BadTopic: 'The apns-topic (bundle id) is invalid.',
  PayloadTooLarge: 'The payload is larger than 4 KB.',
  InvalidProviderToken: "APNs refused the provider token: check the project's APNs key id, team id and key.",
  ExpiredProviderToken: 'The provider token was older than an hour; Herald refreshes it and retries.',
  TooManyRequests: 'Too many requests to this device token in a short time.',
  InternalServerError: 'APNs had an internal error.',
  ServiceUnavailable: 'APNs was unavailable.',
  Shutdown: 'The APNs server was shutting down.',
  BadCollapseId: 'The collapse id is longer than 64 bytes.',
  BadExpirationDate: 'The expiration (ttl) is invalid.',
  BadPriority: 'The priority is invalid.',
  MissingTopic: 'No apns-topic was given.',
  // FCM (HTTP v1 ErrorCode)
  UNREGISTERED: 'The app instance was unregistered (uninstalled, or the token expired). The device was deactivated.',
  INVALID_ARGUMENT: 'FCM refused the token or a field of the message as invalid.',
  SENDER_ID_MISMATCH: 'The token belongs to another Firebase project: check the project\'s FCM service account.',
  QUOTA_EXCEEDED: 'The Firebase project sent more than its quota allows; Herald retried.',
  UNAVAILABLE: 'FCM was overloaded or unavailable.',
  INTERNAL: 'FCM had an internal error.',
  THIRD_PARTY_AUTH_ERROR: 'The APNs certificate or key uploaded to Firebase was refused.',
  // Web Push (the browser's push service) and Huawei Push Kit
  SubscriptionGone: "The browser's push subscription is gone (unsubscribed or expired; the push service answered 404 or 410). The device was deactivated: the page must subscribe again.",
  SubscriptionUnknown: 'Herald had no stored Web Push subscription for this web device when it sent: the page must register its subscription.',
  NoWebPushKeys: 'The project has no Web Push (VAPID) keys: create them with `herald providers webpush <project-id> --generate --subject mailto:…`.',
  VapidKeyUnknown: 'The project no longer has the VAPID key this browser subscribed with: the page must subscribe again with the current key.',
  VapidRejected: "The push service refused the project's VAPID authorization: check its subject and keys (`herald providers webpush <project-id> --show`).",
  NoHmsCredentials: 'The project has no Huawei Push Kit credential: set it with `herald providers hms <project-id> --app-id … --client-id … --client-secret-file …`.',
  OAuthClientRefused: "Huawei's OAuth server refused the project's Push Kit client id or secret: set them again with `herald providers hms`.",
  InvalidTokenForm: 'The device registered a token Huawei Push Kit can never accept: the app must register its current HMS push token.',
  // Herald
  AttemptsExhausted: 'Herald retried this batch as often as it may (DELIVERY_MAX_ATTEMPTS) without an answer from the provider.',
  NoApnsCredentials: 'The project has no APNs credentials: set them with `herald providers apns`.',
  NoFcmCredentials: 'The project has no FCM credentials: set them with `herald providers fcm`.',
  RequestTimeout: 'The provider did not answer in time.',
  ConnectionError: 'Herald could not connect to the provider.',
  '': 'No reason was given.',
};

export function reasonMeaning(reason: string): string {
  if (reason in MEANINGS) return MEANINGS[reason]!;
  if (/^HTTP \d{3}$/.test(reason)) return `The provider answered ${reason.slice(5)} without a reason.`;
  return 'A reason this console does not describe: see the provider\'s documentation.';
}
