import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const TopicDeletedV1 = eventSchema(
  'TopicDeleted',
  1,
  Type.Object({
    topic_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1, description: 'The name it had, so a consumer can drop name → id without a lookup' }),
  }),
  'The project deleted the topic (or reclaimed a device-created one with no subscribers): it no longer exists, so no target resolves to it. ' +
    "Devices keep the id in their subscriptions; a later TopicCreated of the same name (same id) reaches them again.",
);
export type TopicDeletedV1 = Static<typeof TopicDeletedV1>;
