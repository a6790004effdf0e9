import { topicIdFor } from '@herald/events';
import { topicNameProblem } from '@herald/audience';
import { UnprocessableError, ValidationError } from '@herald/errors';
import type { TopicQueries } from '@herald/mongo';
import { assertRoomForTopics } from './topic-quota.ts';

/**
 * What a device-facing registration may do with topics: they are the
 * project's unless it lets devices create them, and no topic (the project's
 * or a device's) takes a name of an id's or a token's form, which a plain
 * target string never names as a topic (libs/audience plain-target.ts). That
 * is decided by the name alone, so it holds whichever of a topic and a
 * device came first; a token is never checked against topics.
 */
export interface RegistrationGuards {
  topics: TopicQueries;
}

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');

/** Named topics that do not exist (each looked up by its derived id: cheap on every store). */
async function missingTopics(topics: TopicQueries, projectId: string, names: readonly string[]): Promise<string[]> {
  const found = await Promise.all(names.map((name) => topics.topicExists(projectId, topicIdFor(projectId, name))));
  return names.filter((_, index) => !found[index]);
}

/**
 * The topics this registration must create: none when all it names exist.
 * Refused when a named topic does not exist and the project does not let
 * devices create topics (400), when a new name has an id's or a token's form
 * (422), or past the device-created topic quota; each naming `topics`.
 */
export async function topicsToCreate(guards: RegistrationGuards, projectId: string, deviceTopics: boolean, names: readonly string[]): Promise<string[]> {
  const missing = await missingTopics(guards.topics, projectId, names);
  if (missing.length === 0) return [];
  if (!deviceTopics) {
    throw new ValidationError([
      `topics ${quoted(missing)} ${missing.length === 1 ? 'does' : 'do'} not exist in this project: topics are created with the API key (POST /api/v1/topics) ` +
        'unless the project lets devices create them (herald projects device-topics <project-id> on)',
    ]);
  }
  const problems = missing.map((name) => topicNameProblem('topics', name)).filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new UnprocessableError(problems);
  await assertRoomForTopics(guards.topics, projectId, 'device', missing.length);
  return missing;
}
