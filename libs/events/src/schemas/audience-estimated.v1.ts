import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const AudienceEstimatedV1 = eventSchema(
  'AudienceEstimated',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    partition: Type.Integer({ minimum: 0, description: 'The herald.device-events partition whose audience was counted' }),
    partitions: Type.Integer({ minimum: 1, description: 'How many partitions the send is fanned out over' }),
    devices: Type.Integer({
      minimum: 0,
      description:
        "Devices the partition's audience index lists under the send's targets at the fan-out's second step: exact for one topic, one user or named devices; an upper bound for several targets (a device in two is counted twice) or a metadata filter (the members of its first pair)",
    }),
  }),
  "A campaign's fan-out counted one partition's audience at its second step (sends larger than one fan-out step, without a local-time slot): what its progress and ETA are measured against until the partition is dispatched.",
);
export type AudienceEstimatedV1 = Static<typeof AudienceEstimatedV1>;
