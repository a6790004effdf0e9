import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const TopicCreatedV1 = eventSchema(
  'TopicCreated',
  1,
  Type.Object({
    topic_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
  }),
  'A topic was created, explicitly or by the first device subscribing to it. Repeats are harmless.',
);
export type TopicCreatedV1 = Static<typeof TopicCreatedV1>;
