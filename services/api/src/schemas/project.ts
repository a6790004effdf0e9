import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';

const ProjectSettings = Type.Object({
  id: Type.String(),
  name: Type.String(),
  timezone: Type.String({
    description: "The project's IANA time zone (UTC unless set): the console can show every time in it, and local-time sends use it for devices that registered no zone",
  }),
});

export const getProjectSchema = {
  summary: 'The current project: its name and time zone',
  tags: ['project'],
  security: BEARER,
  response: { 200: Type.Object({ data: ProjectSettings }), ...errorResponses(401) },
} as const;

export const updateProjectSchema = {
  summary: "Change the project's time zone",
  description: 'An IANA zone name (`Europe/Paris`, `UTC`), stored in its usual spelling (`europe/paris` → `Europe/Paris`); an unknown name or an offset is a 400 naming `timezone`.',
  tags: ['project'],
  security: BEARER,
  body: Type.Object({ timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name' }) }, { additionalProperties: false }),
  response: { 200: Type.Object({ data: ProjectSettings }), ...errorResponses(400, 401, 413, 415) },
} as const;
