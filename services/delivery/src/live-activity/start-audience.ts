import { audienceFilter, liveTopicsFilter, resolveAudience, topicCandidates, topicLookupOf, type Audience } from '@herald/audience';
import type { TargetExpression } from '@herald/events';
import type { DeviceQueries, LiveActivityPacingQueries, LiveActivityTokenQueries, TopicQueries } from '@herald/mongo';

/**
 * Push-to-start tokens one start reaches at most: its report (one outcome per
 * token) travels as one Kafka record and one document.
 */
export const START_MAX_TOKENS = 2_000;
/** Push-to-start tokens read per page when the targets name more than devices and users. */
const PAGE = 500;

/** Whether an audience can be read from the devices it names (ids, tokens, users) rather than by walking the tokens of the type. Pure. */
export function namesDevicesOrUsers(audience: Audience): boolean {
  return (audience.expressions ?? []).length === 0 && audience.topic_ids.length === 0 && audience.metadata.length === 0;
}

export interface StartAudienceQueries {
  devices: Pick<DeviceQueries, 'audienceIds'>;
  topics: Pick<TopicQueries, 'topicsMatching'>;
  tokens: Pick<LiveActivityTokenQueries, 'pushToStartOfDevices'>;
  pacing: Pick<LiveActivityPacingQueries, 'pushToStartPage'>;
}

/**
 * The push-to-start tokens for `attributesType` of the active iOS devices a
 * start's targets name, resolved as a notification's are (libs/audience:
 * topic names against the project's live topics, the audience's store
 * filter). Devices and users are looked up directly; topics, metadata and
 * expressions walk the type's tokens page by page and keep those whose
 * device the filter matches, so the cost follows the tokens of that type,
 * not the size of a topic. At most START_MAX_TOKENS, in token id order.
 */
export async function startTokens(queries: StartAudienceQueries, projectId: string, targets: readonly TargetExpression[], attributesType: string) {
  const candidates = topicCandidates(targets);
  const live = candidates.length === 0 ? [] : await queries.topics.topicsMatching(liveTopicsFilter(projectId, candidates));
  const audience = resolveAudience(projectId, targets, topicLookupOf(live));
  const filter = audienceFilter(projectId, audience);
  if (namesDevicesOrUsers(audience)) {
    const ids = await queries.devices.audienceIds(filter, 'ios', START_MAX_TOKENS);
    return (await queries.tokens.pushToStartOfDevices(projectId, ids, attributesType)).slice(0, START_MAX_TOKENS);
  }
  const found = [];
  let after: string | undefined;
  for (;;) {
    const page = await queries.pacing.pushToStartPage(projectId, attributesType, after, PAGE);
    if (page.length === 0) break;
    const matched = new Set(await queries.devices.audienceIds(filter, 'ios', PAGE, [...new Set(page.map((token) => token.device_id))]));
    for (const token of page) if (matched.has(token.device_id) && found.length < START_MAX_TOKENS) found.push(token);
    if (found.length >= START_MAX_TOKENS || page.length < PAGE) break;
    after = page.at(-1)!._id;
  }
  return found;
}
