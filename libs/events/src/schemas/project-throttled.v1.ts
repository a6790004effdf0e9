import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const ProjectThrottledV1 = eventSchema(
  'ProjectThrottled',
  1,
  Type.Object({
    provider: Type.Union([Type.Literal('apns'), Type.Literal('fcm')]),
    until: Type.String({ format: 'date-time', description: "The provider's `Retry-After` from when it answered (or a back-off when it gave none): the project's campaign steps wait until then" }),
    reason: Type.String({ description: "The provider's answer: `TooManyRequests` (APNs 429), `QUOTA_EXCEEDED` / `RESOURCE_EXHAUSTED` (FCM 429)" }),
  }),
  "Work item on herald.delivery-control, which every delivery instance follows: a provider pushed back on the envelope's project (429 with `Retry-After`), so its campaign fan-out holds until `until` and restarts from an empty budget bucket; its transactional sends go on.",
);
export type ProjectThrottledV1 = Static<typeof ProjectThrottledV1>;
