import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { DeliveryBatchV1 } from './delivery-batch.v1.ts';
import { LocaleContentFields } from './content.ts';
import { Provider } from './common.ts';

const v1 = DeliveryBatchV1.properties.data.properties;

/**
 * v1 plus per-device content: a batch of a template send (or a literal send
 * with localisations) carries its distinct rendered contents once, and each
 * device the index of its own, or the render error that failed it.
 */
export const DeliveryBatchV2 = eventSchema(
  'DeliveryBatch',
  2,
  Type.Object({
    ...v1,
    // Wider than v1's: `webpush` batches carry web devices (their token is the subscription's endpoint), `hms` batches Huawei devices.
    provider: Provider,
    contents: Type.Optional(
      Type.Array(LocaleContentFields, {
        description: "The batch's distinct rendered contents, each laid over `message` for the devices that name it (`devices[].content`); absent: every device gets `message`",
      }),
    ),
    devices: Type.Array(
      Type.Object({
        device_id: Type.String({ minLength: 1 }),
        token: Type.String({ minLength: 1 }),
        content: Type.Optional(Type.Integer({ minimum: 0, description: 'Index into `contents` of what this device gets' })),
        locale: Type.Optional(Type.String({ minLength: 1, description: 'The content locale the device got (`default` when none of its own)' })),
        variant: Type.Optional(Type.String({ minLength: 1, description: 'An A/B send: the variant this device got' })),
        error: Type.Optional(Type.String({ minLength: 1, description: "Its content could not be rendered (a template error, naming locale, field and line): reported `failed` with reason `TemplateError`, never sent" })),
      }),
      { maxItems: 500 },
    ),
  }),
  'Work item for a sender: up to 500 devices of one notification on one provider, with per-device content when the send is a template or has localisations.',
);
export type DeliveryBatchV2 = Static<typeof DeliveryBatchV2>;
