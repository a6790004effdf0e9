import { describe, expect, it } from 'vitest';
import type { ResolvedAudience } from '@herald/events';
import { explainAudience } from './explain-audience.ts';
import { matchesAudience, type AudienceDevice } from './predicate.ts';

const none: ResolvedAudience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
const device: AudienceDevice = { _id: 'd1', project_id: 'p1', status: 'active', token: 't1', topics: ['news'], metadata: { plan: 'free', lang: 'en' }, external_id: 'u1' };

describe('explainAudience', () => {
  it('names the topic clause that failed and what the device is subscribed to', () => {
    const verdict = explainAudience(device, 'p1', { ...none, topic_ids: ['sports'] });
    expect(verdict.matches).toBe(false);
    expect(verdict.failed).toEqual([]);
    expect(verdict.clauses).toEqual([{ clause: 'topic', matched: false, detail: 'topic: not subscribed to "sports" (subscribed to "news")' }]);
    const named = explainAudience(device, 'p1', { ...none, topic_ids: ['sports'] }, undefined, (id) => `#${id}`);
    expect(named.clauses[0]?.detail).toBe('topic: not subscribed to "#sports" (subscribed to "#news")');
  });

  it('names the metadata key whose value differs, and a key that is not set', () => {
    const verdict = explainAudience(device, 'p1', { ...none, metadata: [{ lang: 'en', plan: 'pro' }, { tier: 'gold' }] });
    expect(verdict.matches).toBe(false);
    expect(verdict.clauses[0]?.detail).toBe('metadata {"lang":"en","plan":"pro"}: key "plan" is "free", not "pro"; metadata {"tier":"gold"}: key "tier" is not set');
  });

  it('reports every present clause, and matches when one names the device', () => {
    const verdict = explainAudience(device, 'p1', { ...none, device_ids: ['d2'], external_ids: ['u1'] });
    expect(verdict.matches).toBe(true);
    expect(verdict.clauses.map((clause) => [clause.clause, clause.matched])).toEqual([
      ['device_id', false],
      ['external_id', true],
    ]);
  });

  it('fails on status, project and zone before the targets', () => {
    const verdict = explainAudience({ ...device, status: 'inactive', timezone: 'Europe/Paris' }, 'p2', { ...none, tokens: ['t1'] }, { zones: ['Asia/Tokyo'], includeUnset: false });
    expect(verdict.matches).toBe(false);
    expect(verdict.failed).toEqual(['project', 'status', 'zone']);
    expect(verdict.clauses).toEqual([{ clause: 'token', matched: true, detail: 'token: the device holds a targeted token' }]);
  });

  it('a refreshed token holder is named only while it still holds the token', () => {
    const audience = { ...none, device_ids: ['d1'], held_tokens: { d1: 'old' } };
    expect(explainAudience(device, 'p1', { ...none, held_tokens: { d1: 'old' } }).clauses[0]?.detail).toBe('token (refreshed): the device no longer holds the targeted token');
    expect(explainAudience({ ...device, token: 'old' }, 'p1', audience).clauses[0]).toMatchObject({ clause: 'held_token', matched: true });
  });

  it('always answers what matchesAudience answers, and names a clause exactly when it matches', () => {
    const audiences: ResolvedAudience[] = [
      none,
      { ...none, topic_ids: ['news'] },
      { ...none, tokens: ['t2'], metadata: [{ plan: 'free' }] },
      { ...none, external_ids: ['u2'], device_ids: ['d1'] },
      { ...none, metadata: [{ plan: 'pro' }] },
    ];
    const devices: AudienceDevice[] = [device, { ...device, status: 'inactive' }, { ...device, project_id: 'p2' }, { ...device, topics: [], metadata: {}, external_id: undefined }];
    for (const audience of audiences) {
      for (const candidate of devices) {
        const verdict = explainAudience(candidate, 'p1', audience);
        expect(verdict.matches).toBe(matchesAudience(candidate, 'p1', audience));
        expect(verdict.matches).toBe(verdict.failed.length === 0 && verdict.clauses.some((clause) => clause.matched));
      }
    }
  });
});
