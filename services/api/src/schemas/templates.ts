import Type from 'typebox';
import { TEMPLATE_LIMITS } from '@herald/templates';
import { BEARER, errorResponses, PageQuery, Pagination, StringMap } from './common.ts';
import { PushOptionsInput } from './push-options.ts';

const Liquid = (description: string) => Type.String({ maxLength: TEMPLATE_LIMITS.fieldSource, description });

/** One locale's content: the notification's content fields, the text ones in Liquid (docs/guides/templates.md). */
export const LocaleContentInput = Type.Object(
  {
    title: Liquid('Liquid: the title'),
    body: Liquid('Liquid: the body'),
    link_to: Type.Optional(Liquid('Liquid: the deep link opened on tap')),
    image: Type.Optional(Liquid('Liquid: https URL of an image')),
    data: Type.Optional(
      Type.Record(Type.String(), Liquid('Liquid'), {
        propertyNames: { pattern: '^[^.$\\u0000-\\u001f\\u2028\\u2029][^.\\u0000-\\u001f\\u2028\\u2029]{0,63}$' },
        maxProperties: TEMPLATE_LIMITS.dataKeys,
        description: 'Custom key/value pairs for the app; each value is Liquid',
      }),
    ),
    apns: PushOptionsInput.apns,
    fcm: PushOptionsInput.fcm,
  },
  { additionalProperties: false },
);

/** Content by locale: `default` (required) and locale tags (`fr`, `fr-CA`). */
export const TemplateContentInput = Type.Record(Type.String({ maxLength: 35 }), LocaleContentInput, {
  minProperties: 1,
  maxProperties: TEMPLATE_LIMITS.locales,
  description:
    "`default` and any locale tags (`fr`, `fr-CA`, `zh-Hant-TW`): a device gets its locale's content, else its language's (`fr-CA` → `fr`), else `default`. " +
    `At most ${TEMPLATE_LIMITS.locales} locales and ${TEMPLATE_LIMITS.contentBytes} bytes in all`,
});

/** What a send adds to use a template, or to localise literal content (docs/guides/templates.md). */
export const TemplateSendInput = {
  template: Type.Optional(
    Type.String({ minLength: 1, maxLength: 300, description: 'A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send' }),
  ),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100, description: "The template's variables (not `device`: the device's own values are read under it)" })),
  localizations: Type.Optional(
    Type.Record(Type.String({ maxLength: 35 }), Type.Partial(Type.Omit(LocaleContentInput, ['apns', 'fcm'])), {
      maxProperties: TEMPLATE_LIMITS.locales,
      description: "A literal send's content by locale tag (`fr`, `fr-CA`), not Liquid: a device gets its locale's fields over the send's own (fallback `fr-CA` → `fr` → the send's own)",
    }),
  ),
};

const Samples = Type.Object(
  {
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Sample values of the variables a send will give' })),
    device: Type.Optional(
      Type.Object(
        { metadata: Type.Optional(StringMap), locale: Type.Optional(Type.String({ maxLength: 35 })), timezone: Type.Optional(Type.String({ maxLength: 64 })) },
        { additionalProperties: false, description: 'Sample device values (`device.metadata.*`, `device.locale`, `device.timezone`)' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Values the save-time check renders every locale with, over the ones Herald makes up ("sample" for every value a template reads): give them where a made-up string cannot stand in (a list looped over, a number divided)',
  },
);

export const TemplateBody = Type.Object({ content: TemplateContentInput, samples: Type.Optional(Samples) }, { additionalProperties: false });

const Timestamp = Type.String({ format: 'date-time' });

export const TemplateVersionView = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The template id (derived from the project and the name)' }),
    name: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'This version; versions never change' }),
    content: Type.Record(Type.String(), Type.Unknown(), { description: 'Content by locale, as saved' }),
    created_at: Timestamp,
  },
  { $id: 'TemplateVersion' },
);

export const TemplateSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    latest_version: Type.Integer({ minimum: 1 }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'TemplateSummary' },
);

const VersionSummary = Type.Object({ version: Type.Integer({ minimum: 1 }), created_at: Timestamp });

const TemplateId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The template id' }) });

const PROBLEMS = 'A bad template answers 422 with one message per problem, each naming the locale, the field and the line: `content.fr.body line 2: undefined variable: name`.';

export const createTemplateSchema = {
  summary: 'Create a template (its version 1)',
  description: `Checked before it is saved: every locale's fields parse as strict Liquid, and every locale renders with sample values. ${PROBLEMS} 409 when the project has a template of that name (PUT makes a new version).`,
  tags: ['templates'],
  security: BEARER,
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^@]*$', description: 'Unique in the project; no `@` (it separates a version in a reference)' }), ...TemplateBody.properties }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: TemplateVersionView }), ...errorResponses(400, 401, 409, 413, 415, 422, 503) },
} as const;

export const updateTemplateSchema = {
  summary: "Save a new version of a template's content",
  description: `Versions are immutable: this makes version n+1 and answers it; sends name a version with \`name@n\` (without one: the newest). ${PROBLEMS}`,
  tags: ['templates'],
  security: BEARER,
  params: TemplateId,
  body: TemplateBody,
  response: { 200: Type.Object({ data: TemplateVersionView }), ...errorResponses(400, 401, 404, 413, 415, 422, 503) },
} as const;

export const listTemplatesSchema = {
  summary: 'The templates of the project, oldest first',
  tags: ['templates'],
  security: BEARER,
  querystring: Type.Object(PageQuery, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Type.Array(TemplateSummary), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const getTemplateSchema = {
  summary: "A template's newest version, with its content",
  tags: ['templates'],
  security: BEARER,
  params: TemplateId,
  response: { 200: Type.Object({ data: TemplateVersionView }), ...errorResponses(400, 401, 404) },
} as const;

export const listTemplateVersionsSchema = {
  summary: "A template's versions, newest first",
  tags: ['templates'],
  security: BEARER,
  params: TemplateId,
  querystring: Type.Object(PageQuery, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Type.Array(VersionSummary), pagination: Pagination }), ...errorResponses(400, 401, 404) },
} as const;

export const getTemplateVersionSchema = {
  summary: 'One version of a template, with its content',
  tags: ['templates'],
  security: BEARER,
  params: Type.Object({ ...TemplateId.properties, version: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }) }),
  response: { 200: Type.Object({ data: TemplateVersionView }), ...errorResponses(400, 401, 404) },
} as const;

export const deleteTemplateSchema = {
  summary: 'Delete a template and its versions',
  description:
    'Sends already accepted still render it: each carries the version it uses in its own event. New sends naming it answer 422. ' +
    'A template made again under the same name numbers its versions on from where this one stopped.',
  tags: ['templates'],
  security: BEARER,
  params: TemplateId,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404, 503) },
} as const;
