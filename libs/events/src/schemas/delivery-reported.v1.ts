import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Provider } from './common.ts';

export const DeliveryOutcome = Type.Union([
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('invalid'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
export type DeliveryOutcome = Static<typeof DeliveryOutcome>;

export const DeliveryReportedV1 = eventSchema(
  'DeliveryReported',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    batch_id: Type.String({ minLength: 1 }),
    provider: Provider,
    results: Type.Array(
      Type.Object({
        device_id: Type.String({ minLength: 1 }),
        outcome: DeliveryOutcome,
        reason: Type.Optional(Type.String({ description: "Provider's reason code when not delivered" })),
        attempts: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
    ),
  }),
  'Per-device outcomes of one delivery batch: delivered (accepted by the provider), failed, invalid (token rejected), cancelled (not sent: the notification was cancelled first) or expired (not sent: its `max_duration` ran out first).',
);
export type DeliveryReportedV1 = Static<typeof DeliveryReportedV1>;
