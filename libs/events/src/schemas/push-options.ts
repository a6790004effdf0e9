import Type, { type Static } from 'typebox';
import { StringMap } from './common.ts';

const JsonObject = Type.Record(Type.String(), Type.Unknown());

/**
 * What a notification may carry beyond title and body, as the client sent it.
 * The delivery service maps each field to its APNs header or payload key and
 * its FCM field (libs/push-payloads); `apns` and `fcm` are merged last, raw.
 */
export const PushOptionFields = {
  data: Type.Optional(StringMap),
  badge: Type.Optional(Type.Integer({ minimum: 0 })),
  sound: Type.Optional(Type.String()),
  ttl: Type.Optional(Type.Integer({ minimum: 0, description: 'Seconds the provider keeps trying to deliver' })),
  priority: Type.Optional(Type.Union([Type.Literal('high'), Type.Literal('normal')])),
  collapse_id: Type.Optional(Type.String()),
  content_available: Type.Optional(Type.Boolean({ description: 'A background (silent) push' })),
  mutable_content: Type.Optional(Type.Boolean()),
  image: Type.Optional(Type.String()),
  category: Type.Optional(Type.String()),
  thread_id: Type.Optional(Type.String()),
  apns: Type.Optional(JsonObject),
  fcm: Type.Optional(JsonObject),
};
export const PushOptions = Type.Object(PushOptionFields);
export type PushOptions = Static<typeof PushOptions>;
