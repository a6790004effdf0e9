import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.ts';

const message = { title: 't', body: 'b' };
const device = (n: number, platform: 'ios' | 'android') => ({ _id: `d${n}`, token: `tok${n}`, platform });

describe('createBatcher', () => {
  it('cuts batches per provider with deterministic ids and counts everything', () => {
    const batcher = createBatcher({ notificationId: 'n1', projectId: 'p', message, batchSize: 2 });
    const full = [device(1, 'ios'), device(2, 'android'), device(3, 'ios'), device(4, 'ios'), device(5, 'android')]
      .map((d) => batcher.add(d))
      .filter((batch) => batch !== undefined);
    const rest = batcher.flush();
    const batches = [...full, ...rest];
    expect(batches.map((batch) => [batch.data.batch_id, batch.data.devices.map((d) => d.device_id)])).toEqual([
      ['n1:apns:0', ['d1', 'd3']],
      ['n1:fcm:0', ['d2', 'd5']],
      ['n1:apns:1', ['d4']],
    ]);
    expect(batches.every((batch) => batch.stream_id === batch.data.batch_id && batch.project_id === 'p')).toBe(true);
    expect(batcher.targeted).toEqual({ apns: 3, fcm: 2 });
    expect(batcher.batches).toEqual({ apns: 2, fcm: 1 });
  });

  it('gives the same batch ids when the same audience is read again', () => {
    const run = () => {
      const batcher = createBatcher({ notificationId: 'n1', projectId: 'p', message, batchSize: 3 });
      const out = Array.from({ length: 7 }, (_, i) => batcher.add(device(i, i % 3 === 0 ? 'ios' : 'android'))).filter((b) => b !== undefined);
      return [...out, ...batcher.flush()].map((batch) => [batch.data.batch_id, batch.data.devices]);
    };
    expect(run()).toEqual(run());
  });

  it('continues numbering and counting from where a resumed fan-out starts', () => {
    const batcher = createBatcher({ notificationId: 'n1', projectId: 'p', message, batchSize: 2, start: { sequence: { apns: 4, fcm: 1 }, targeted: { apns: 8, fcm: 2 } } });
    batcher.add(device(9, 'ios'));
    expect(batcher.flush().map((batch) => batch.data.batch_id)).toEqual(['n1:apns:4']);
    expect(batcher.targeted).toEqual({ apns: 9, fcm: 2 });
    expect(batcher.batches).toEqual({ apns: 5, fcm: 1 });
  });

  it('makes no batch for an empty audience', () => {
    expect(createBatcher({ notificationId: 'n1', projectId: 'p', message }).flush()).toEqual([]);
  });
});
