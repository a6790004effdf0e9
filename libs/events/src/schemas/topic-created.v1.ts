import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

/** Who created a topic: the project (bearer key) or a device's registration (only in projects that allow it). */
export const TopicOrigin = Type.Union([Type.Literal('project'), Type.Literal('device')], {
  description:
    '`project`: created with the bearer key (POST /api/v1/topics); `device`: created by a device registration in a project that lets devices create topics (self-asserted). ' +
    'Absent on events written before origins were recorded: read it as `device` (any device could create topics then).',
});
export type TopicOrigin = Static<typeof TopicOrigin>;

export const TopicCreatedV1 = eventSchema(
  'TopicCreated',
  1,
  Type.Object({
    topic_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    origin: Type.Optional(TopicOrigin),
  }),
  'A topic was created, by the project or by the first device subscribing to it. Repeats are harmless; a repeat with origin `project` makes a device-created topic the project\'s. After TopicDeleted it creates the topic anew.',
);
export type TopicCreatedV1 = Static<typeof TopicCreatedV1>;
