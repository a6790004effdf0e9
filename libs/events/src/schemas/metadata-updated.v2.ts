import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { StringMap } from './common.ts';

export const MetadataUpdatedV2 = eventSchema(
  'MetadataUpdated',
  2,
  Type.Object({
    device_id: Type.String({ minLength: 1 }),
    set: StringMap,
    unset: Type.Array(Type.String()),
    locale: Type.Optional(Type.String({ minLength: 1, description: 'The device\'s new BCP 47 language tag (canonical form), set through the device-facing metadata route' })),
  }),
  "A device's metadata was merged: keys in `set` were written, keys in `unset` removed; `locale`, when present, replaced the device's locale.",
);
export type MetadataUpdatedV2 = Static<typeof MetadataUpdatedV2>;
