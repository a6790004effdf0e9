import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { ProviderV1 as Provider } from './common.ts';
import { PushOptionFields } from './push-options.ts';

export const DeliveryBatchV1 = eventSchema(
  'DeliveryBatch',
  1,
  Type.Object({
    batch_id: Type.String({ minLength: 1, description: 'Deterministic: notification id + provider + sequence' }),
    notification_id: Type.String({ minLength: 1 }),
    provider: Provider,
    sequence: Type.Integer({ minimum: 0 }),
    message: Type.Object({
      title: Type.String(),
      body: Type.String(),
      link_to: Type.Optional(Type.String()),
      group: Type.Optional(Type.String()),
      ...PushOptionFields,
    }),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: "The notification's `max_duration` deadline: a batch not sent by then is reported `expired`, not sent" })),
    rate_per_minute: Type.Optional(
      Type.Integer({ minimum: 1, description: "The notification's pace when this batch was queued (absent: unpaced): senders never send its pushes faster, even when catching up a backlog" }),
    ),
    deferral: Type.Optional(
      Type.Object(
        { rule: Type.String({ minLength: 1 }), until: Type.String({ format: 'date-time' }) },
        { description: 'A batch held by a frequency cap or quiet hours and released at `until` (reported `deferred` under this batch id first): its report settles that deferral' },
      ),
    ),
    retry: Type.Optional(
      Type.Object(
        {
          after: Type.String({ format: 'date-time', description: 'Not sent again before this instant (the back-off, or the provider\'s Retry-After)' }),
          sends: Type.Integer({ minimum: 1, description: 'Sends already made to these devices' }),
        },
        { description: "A batch's devices still retryable after its first send, handed to the provider's retry lane (under the batch id `retryBatchId` gives): retried there, so they never hold fresh batches" },
      ),
    ),
    devices: Type.Array(
      Type.Object({ device_id: Type.String({ minLength: 1 }), token: Type.String({ minLength: 1 }) }),
      { maxItems: 500 },
    ),
  }),
  'Work item for a sender: up to 500 devices of one notification on one provider.',
);
export type DeliveryBatchV1 = Static<typeof DeliveryBatchV1>;
