import { describe, expect, it } from 'vitest';
import { attachInputProblem, attachRefusal, liveActivityTokenId, slotKey } from './live-activity-tokens.ts';

const device = { project_id: 'p1', token: 'a'.repeat(64) };

describe('attachRefusal', () => {
  it('lets the project’s bearer key attach to its own device only', () => {
    expect(attachRefusal({ bearerProjectId: 'p1', deviceToken: undefined, device })).toBeUndefined();
    expect(attachRefusal({ bearerProjectId: 'p2', deviceToken: undefined, device })).toBe('not_found');
    expect(attachRefusal({ bearerProjectId: 'p1', deviceToken: undefined, device: undefined })).toBe('not_found');
  });

  it('lets the device attach with its current token, and refuses anyone else alike whether the device exists or not', () => {
    expect(attachRefusal({ bearerProjectId: undefined, deviceToken: device.token, device })).toBeUndefined();
    expect(attachRefusal({ bearerProjectId: undefined, deviceToken: 'b'.repeat(64), device })).toBe('forbidden');
    expect(attachRefusal({ bearerProjectId: undefined, deviceToken: undefined, device })).toBe('forbidden');
    expect(attachRefusal({ bearerProjectId: undefined, deviceToken: device.token, device: undefined })).toBe('forbidden');
  });
});

describe('liveActivityTokenId', () => {
  it('is a UUID fixed by device, kind and slot key', () => {
    const id = liveActivityTokenId('d1', 'update', 'act-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(liveActivityTokenId('d1', 'update', 'act-1')).toBe(id);
    expect(liveActivityTokenId('d1', 'update', 'act-2')).not.toBe(id);
    expect(liveActivityTokenId('d2', 'update', 'act-1')).not.toBe(id);
    expect(liveActivityTokenId('d1', 'push_to_start', 'act-1')).not.toBe(id);
  });
});

describe('attachInputProblem and slotKey', () => {
  it('wants an activity for an update token and none for a push-to-start token', () => {
    expect(attachInputProblem({ kind: 'update' })).toMatch(/^activity_id: /);
    expect(attachInputProblem({ kind: 'push_to_start', activity_id: 'x' })).toMatch(/^activity_id: /);
    expect(attachInputProblem({ kind: 'update', activity_id: 'x' })).toBeUndefined();
    expect(attachInputProblem({ kind: 'push_to_start', attributes_type: 'A' })).toBeUndefined();
  });

  it('keys an update token by its activity and a push-to-start token by its attributes type', () => {
    expect(slotKey({ kind: 'update', activity_id: 'act', attributes_type: 'A' })).toBe('act');
    expect(slotKey({ kind: 'push_to_start', attributes_type: 'A' })).toBe('A');
  });
});
