import { describe, expect, it } from 'vitest';
import type { LiveActivityTokenDocument } from '@herald/mongo';
import { namesDevicesOrUsers, START_MAX_TOKENS, startTokens, type StartAudienceQueries } from './start-audience.ts';

const at = new Date(0);
const pts = (device: string): LiveActivityTokenDocument => ({ _id: `t-${device}`, project_id: 'p', device_id: device, kind: 'push_to_start', token: `tok-${device}`, activity_id: null, attributes_type: 'A', created_at: at, updated_at: at });

/** Fakes over a list of tokens; devices "match" when their id is in `matching` (the store's filter is the store's to evaluate). */
function fakes(tokens: LiveActivityTokenDocument[], matching: Set<string>) {
  const calls = { pages: 0, direct: 0 };
  const queries: StartAudienceQueries = {
    devices: {
      audienceIds: async (_filter, platform, limit, among) => {
        expect(platform).toBe('ios');
        if (among === undefined) calls.direct += 1;
        return [...matching].filter((id) => among === undefined || among.includes(id)).sort().slice(0, limit);
      },
    },
    topics: { topicsMatching: async () => [{ _id: 'topic-1', project_id: 'p', name: 'fans' }] },
    tokens: { pushToStartOfDevices: async (_project, ids) => tokens.filter((token) => ids.includes(token.device_id)) },
    pacing: {
      pushToStartPage: async (_project, _type, after, limit) => {
        calls.pages += 1;
        return tokens.filter((token) => after === undefined || token._id > after).slice(0, limit);
      },
    },
  };
  return { queries, calls };
}

describe('startTokens', () => {
  it('looks devices and users up directly', async () => {
    const { queries, calls } = fakes([pts('d1'), pts('d2')], new Set(['d1']));
    expect((await startTokens(queries, 'p', [{ device_id: 'd1' }, { external_id: 'u' }], 'A')).map((token) => token._id)).toEqual(['t-d1']);
    expect(calls).toEqual({ pages: 0, direct: 1 });
  });

  it("walks the type's tokens for a topic or an expression, keeping those whose device matches, across pages", async () => {
    const devices = Array.from({ length: 1_200 }, (_, index) => `d${String(index).padStart(4, '0')}`);
    const { queries, calls } = fakes(devices.map(pts), new Set(devices.filter((_, index) => index % 3 === 0)));
    const found = await startTokens(queries, 'p', [{ or: [{ topic: 'fans' }, { metadata: { team: 'blue' } }] }], 'A');
    expect(found).toHaveLength(400);
    expect(found.every((token) => Number(token.device_id.slice(1)) % 3 === 0)).toBe(true);
    expect(calls.pages).toBe(3);
  });

  it(`stops at ${START_MAX_TOKENS} tokens`, async () => {
    const devices = Array.from({ length: START_MAX_TOKENS + 700 }, (_, index) => `d${String(index).padStart(5, '0')}`);
    const { queries } = fakes(devices.map(pts), new Set(devices));
    expect(await startTokens(queries, 'p', ['fans'], 'A')).toHaveLength(START_MAX_TOKENS);
  });
});

describe('namesDevicesOrUsers', () => {
  it('holds for ids, tokens and users, not for topics, metadata or expressions', () => {
    const plain = { topic_ids: [], device_ids: ['d'], tokens: ['t'], external_ids: ['u'], metadata: [] };
    expect(namesDevicesOrUsers(plain)).toBe(true);
    expect(namesDevicesOrUsers({ ...plain, topic_ids: ['x'] })).toBe(false);
    expect(namesDevicesOrUsers({ ...plain, metadata: [{ a: 'b' }] })).toBe(false);
    expect(namesDevicesOrUsers({ ...plain, expressions: [{ platform: 'ios' }] })).toBe(false);
  });
});
