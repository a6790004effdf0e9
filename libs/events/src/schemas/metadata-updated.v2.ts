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
  }),
  "A device's metadata was merged: keys in `set` were written, keys in `unset` removed.",
);
export type MetadataUpdatedV2 = Static<typeof MetadataUpdatedV2>;
