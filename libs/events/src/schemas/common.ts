import Type, { type Static } from 'typebox';

/** The platforms v1 events name. Published: never widened (v2 events use Platform). */
export const PlatformV1 = Type.Union([Type.Literal('ios'), Type.Literal('android')]);
export type PlatformV1 = Static<typeof PlatformV1>;

/** Every platform: `web` is a browser's Web Push subscription (its token is the subscription's endpoint); `huawei` an Android device with HMS Core and no Google services (its token is Push Kit's). */
export const Platform = Type.Union([Type.Literal('ios'), Type.Literal('android'), Type.Literal('web'), Type.Literal('huawei')]);
export type Platform = Static<typeof Platform>;

/** The providers v1 events name. Published: never widened (v2 events use Provider). */
export const ProviderV1 = Type.Union([Type.Literal('apns'), Type.Literal('fcm')]);
export type ProviderV1 = Static<typeof ProviderV1>;

/** Every provider: `webpush` sends to `web` devices through their push service (RFC 8030); `hms` to `huawei` devices through Huawei Push Kit. */
export const Provider = Type.Union([Type.Literal('apns'), Type.Literal('fcm'), Type.Literal('webpush'), Type.Literal('hms')]);
export type Provider = Static<typeof Provider>;

export const StringMap = Type.Record(Type.String(), Type.String());
export type StringMap = Static<typeof StringMap>;

export const MetadataTarget = Type.Object({ metadata: StringMap }, { additionalProperties: false, description: 'Active devices whose metadata contains every pair' });
export const ExternalIdTarget = Type.Object({ external_id: Type.String({ minLength: 1 }) }, { additionalProperties: false, description: "A user's active devices" });
export const TopicTarget = Type.Object({ topic: Type.String({ minLength: 1 }) }, { additionalProperties: false, description: 'The subscribers of the topic with this name (or id)' });
export const DeviceIdTarget = Type.Object({ device_id: Type.String({ minLength: 1 }) }, { additionalProperties: false, description: 'Exactly the device with this id' });
export const TokenTarget = Type.Object({ token: Type.String({ minLength: 1 }) }, { additionalProperties: false, description: 'Exactly the device holding this push token' });
/**
 * A plain string names the device with that id, the device holding that
 * token, and the topic with that name or id, together; typed objects name
 * one kind exactly (libs/audience, docs/guides/targets.md).
 */
export const Target = Type.Union([Type.String({ minLength: 1 }), MetadataTarget, ExternalIdTarget, TopicTarget, DeviceIdTarget, TokenTarget]);
export type Target = Static<typeof Target>;
