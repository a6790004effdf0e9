import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { ProviderV1 as Provider } from './common.ts';

export const DeliveryOutcomeV1 = Type.Union([
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('invalid'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
  Type.Literal('capped'),
  Type.Literal('deferred'),
]);
export type DeliveryOutcomeV1 = Static<typeof DeliveryOutcomeV1>;

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
        outcome: DeliveryOutcomeV1,
        reason: Type.Optional(Type.String({ description: "Provider's reason code when not delivered" })),
        attempts: Type.Optional(Type.Integer({ minimum: 1 })),
        rule: Type.Optional(Type.String({ description: 'capped / deferred / expired after a deferral: the frequency cap or quiet hours that applied, e.g. "cap 3/86400s per user" or "quiet 22:00-08:00 Europe/Paris"' })),
        until: Type.Optional(Type.String({ format: 'date-time', description: 'deferred: when the push goes out (the cap window allows it, or quiet hours end)' })),
      }),
    ),
    settles_deferral: Type.Optional(Type.Boolean({ description: 'The report of a batch released after its deferral: its outcomes replace the `deferred` lines the batch id was reported with' })),
  }),
  'Per-device outcomes of one delivery batch: delivered (accepted by the provider), failed, invalid (token rejected), cancelled (not sent: the notification was cancelled first) expired (not sent: its `max_duration` ran out first), capped (not sent: a project frequency cap with `on_cap: drop`) or deferred (held by a frequency cap with `on_cap: defer` or by quiet hours until `until`; a later report of the same batch with `settles_deferral` replaces it).',
);
export type DeliveryReportedV1 = Static<typeof DeliveryReportedV1>;
