import Type, { type Static } from 'typebox';

export const Platform = Type.Union([Type.Literal('ios'), Type.Literal('android')]);
export type Platform = Static<typeof Platform>;

export const Provider = Type.Union([Type.Literal('apns'), Type.Literal('fcm')]);
export type Provider = Static<typeof Provider>;

export const StringMap = Type.Record(Type.String(), Type.String());
export type StringMap = Static<typeof StringMap>;

export const MetadataTarget = Type.Object({ metadata: StringMap }, { additionalProperties: false });
export const ExternalIdTarget = Type.Object({ external_id: Type.String({ minLength: 1 }) }, { additionalProperties: false });
export const Target = Type.Union([Type.String({ minLength: 1 }), MetadataTarget, ExternalIdTarget]);
export type Target = Static<typeof Target>;
