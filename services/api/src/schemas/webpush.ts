import Type from 'typebox';
import { errorResponses } from './common.ts';

export const WebPushPublicKeyQuery = Type.Object(
  { project_id: Type.String({ minLength: 1, maxLength: 128, description: 'The project whose application server key to give' }) },
  { additionalProperties: false },
);

export const WebPushPublicKey = Type.Object({
  public_key: Type.String({ description: "The project's current VAPID public key: an uncompressed P-256 point, base64url (pass it to `pushManager.subscribe({ applicationServerKey })`)" }),
  key_id: Type.String({ description: 'Its id; a web device registered now is sent to with this key for as long as its subscription lives, through key rotations' }),
});

export const getWebPushPublicKeySchema = {
  summary: "The project's Web Push application server key (called by a web page; no bearer key)",
  description:
    "The project's current VAPID public key, for `pushManager.subscribe`. Public by nature: every browser that subscribes is given it. " +
    'Answers 404 when the project does not exist or has no Web Push keys (`herald providers webpush <project-id> --generate`). ' +
    'Rate-limited per address and per project like the other device-facing routes; answers may be up to 5 seconds old after a rotation.',
  tags: ['webpush'],
  // Device-facing: no key is taken (a web page asks before it has a device).
  security: [{}],
  querystring: WebPushPublicKeyQuery,
  response: { 200: Type.Object({ data: WebPushPublicKey }), ...errorResponses(400, 404, 429, 503) },
} as const;
