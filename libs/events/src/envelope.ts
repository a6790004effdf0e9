import Type, { type TSchema } from 'typebox';

/** Every record's value: one fact about one stream (device, topic or notification). */
export function eventSchema<const Name extends string, const Version extends number, Data extends TSchema>(
  type: Name,
  version: Version,
  data: Data,
  description: string,
) {
  return Type.Object(
    {
      id: Type.String({ format: 'uuid', description: 'UUIDv7 of this event; unique, time-ordered' }),
      type: Type.Literal(type),
      version: Type.Literal(version),
      occurred_at: Type.String({ format: 'date-time' }),
      project_id: Type.String({ minLength: 1 }),
      stream_id: Type.String({ minLength: 1, description: 'Kafka record key: the device, topic or notification id' }),
      correlation_id: Type.Optional(Type.String()),
      data,
    },
    { $id: `${type}.v${version}`, title: `${type} v${version}`, description },
  );
}

/** Fields shared by every event, whatever its type. */
export const EnvelopeHeader = Type.Object({
  id: Type.String(),
  type: Type.String({ minLength: 1 }),
  version: Type.Integer({ minimum: 1 }),
  occurred_at: Type.String(),
  project_id: Type.String({ minLength: 1 }),
  stream_id: Type.String({ minLength: 1 }),
  correlation_id: Type.Optional(Type.String()),
  data: Type.Unknown(),
});
