import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Provider } from './common.ts';

export const DeliveryOutcome = Type.Union([
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('invalid'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
  Type.Literal('capped'),
  Type.Literal('deferred'),
  Type.Literal('held_out'),
]);
export type DeliveryOutcome = Static<typeof DeliveryOutcome>;

export const DeliveryReportedV2 = eventSchema(
  'DeliveryReported',
  2,
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
        rule: Type.Optional(Type.String({ description: 'capped / deferred / expired after a deferral: the frequency cap or quiet hours that applied, e.g. "cap 3/86400s per user" or "quiet 22:00-08:00 Europe/Paris"' })),
        until: Type.Optional(Type.String({ format: 'date-time', description: 'deferred: when the push goes out (the cap window allows it, or quiet hours end)' })),
        locale: Type.Optional(Type.String({ minLength: 1, description: 'A template send, or one with localisations: the content locale the device got (`default` when none of its own)' })),
        variant: Type.Optional(Type.String({ minLength: 1, description: 'An A/B send: the variant the device got (absent for `held_out`: the holdout gets none)' })),
        error: Type.Optional(Type.String({ minLength: 1, description: 'reason `TemplateError`: what failed the render, naming locale, field and line' })),
      }),
    ),
    settles_deferral: Type.Optional(Type.Boolean({ description: 'The report of a batch released after its deferral: its outcomes replace the `deferred` lines the batch id was reported with' })),
  }),
  'Per-device outcomes of one delivery batch: delivered (accepted by the provider), failed, invalid (token rejected), cancelled (not sent: the notification was cancelled first) expired (not sent: its `max_duration` ran out first), capped (not sent: a project frequency cap with `on_cap: drop`) deferred (held by a frequency cap with `on_cap: defer` or by quiet hours until `until`; a later report of the same batch with `settles_deferral` replaces it) or held_out (not sent: the device is in the holdout of an A/B send).',
);
export type DeliveryReportedV2 = Static<typeof DeliveryReportedV2>;
