import Type, { type Static } from 'typebox';
import { StringMap } from './common.ts';

const JsonObject = Type.Record(Type.String(), Type.Unknown());

/** One locale's content fields, as a template or a literal send's `localizations` holds them (libs/templates). */
export const LocaleContentFields = Type.Object({
  title: Type.String(),
  body: Type.String(),
  link_to: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  data: Type.Optional(StringMap),
  apns: Type.Optional(JsonObject),
  fcm: Type.Optional(JsonObject),
});
export type LocaleContentFields = Static<typeof LocaleContentFields>;

/**
 * The template version a send renders, copied in whole when the send was
 * accepted: delivery and every replay render from this, whatever becomes
 * of the template (edited, deleted).
 */
export const PinnedTemplate = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    version: Type.Integer({ minimum: 1 }),
    content: Type.Record(Type.String(), LocaleContentFields, { description: 'Liquid content by locale (`default` and locale tags), as saved' }),
    variables: Type.Record(Type.String(), Type.Unknown(), { description: "The send's variables" }),
  },
  { description: 'A template send: each device gets this version rendered in its locale (fallback `fr-CA` → `fr` → `default`) with these variables and its own values; `title` and `body` then hold the default locale\'s Liquid' },
);
export type PinnedTemplate = Static<typeof PinnedTemplate>;

/** A literal send's content per locale, laid over its own fields for devices of that locale (fallback as for templates). */
export const Localizations = Type.Record(Type.String(), Type.Partial(LocaleContentFields), {
  description: 'A literal send\'s content by locale tag (`fr`, `fr-CA`): a device gets its locale\'s fields over the send\'s own (fallback `fr-CA` → `fr` → the send\'s own)',
});
export type Localizations = Static<typeof Localizations>;
