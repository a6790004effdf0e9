import { topicIdFor } from '@herald/events';
import { ValidationError } from '@herald/errors';
import type { Collection } from '@herald/mongo';
import { LIVE_TOPIC, type DeviceDocument, type TopicDocument } from '@herald/projections';
import { assertRoomForTopics } from './topic-quota.ts';

/**
 * What a device-facing registration may do with topics and tokens, so that no
 * anonymous registration changes what a project's send to a device reaches
 * (docs/reference/device-endpoints.md): topics are the project's unless it lets
 * devices create them, a device-created topic never takes the name of a
 * device (id or token, active or not) or a topic's id, and no token (nor the
 * device id it makes) is a topic's name or id.
 */
export interface RegistrationGuards {
  devices: Collection<DeviceDocument>;
  topics: Collection<TopicDocument>;
}

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');

async function liveTopic(topics: Collection<TopicDocument>, projectId: string, id: string): Promise<boolean> {
  return (await topics.findOne({ _id: id, project_id: projectId, ...LIVE_TOPIC }, { projection: { _id: 1 } })) !== null;
}

/** Named topics that do not exist (each looked up by its derived id: cheap on every store). */
async function missingTopics(topics: Collection<TopicDocument>, projectId: string, names: readonly string[]): Promise<string[]> {
  const found = await Promise.all(names.map((name) => liveTopic(topics, projectId, topicIdFor(projectId, name))));
  return names.filter((_, index) => !found[index]);
}

/**
 * The topics this registration must create: none when all it names exist.
 * Refused (400, naming `topics`) when a named topic does not exist and the
 * project does not let devices create topics, when a new name is a device's
 * id or token or a topic's id, or past the device-created topic quota.
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
  const device = await guards.devices.findOne(
    { project_id: projectId, $or: [{ _id: { $in: missing } }, { token: { $in: missing } }] },
    { projection: { _id: 1, token: 1 } },
  );
  const topicIds = await Promise.all(missing.map((name) => liveTopic(guards.topics, projectId, name)));
  const taken = missing.filter((name, index) => topicIds[index] || name === device?._id || name === device?.token);
  if (taken.length > 0) {
    throw new ValidationError([`topics ${quoted(taken)} cannot be created by a device: a device-created topic never takes the id or token of a device, nor the id of a topic`]);
  }
  await assertRoomForTopics(guards.topics, projectId, 'device', missing.length);
  return missing;
}

/** Refuses (400, naming `token`) a token that is a topic's name or id, or whose device id is. */
export async function assertTokenIsNoTopic(topics: Collection<TopicDocument>, projectId: string, token: string, deviceId: string): Promise<void> {
  const ids = [...new Set([token, topicIdFor(projectId, token), deviceId, topicIdFor(projectId, deviceId)])];
  const found = await Promise.all(ids.map((id) => liveTopic(topics, projectId, id)));
  if (found.some(Boolean)) throw new ValidationError(['token cannot be registered: it (or the device id it makes) is the name or id of a topic in this project']);
}
