import { describe, expect, it } from 'vitest';
import { isAppError } from '@herald/errors';
import { guardProducer } from './guard-producer.ts';

function stubProducer() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    pending,
    publish: (_events: readonly unknown[], _topic?: string) => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    name: () => 'stub',
  };
}

describe('guardProducer', () => {
  it('passes an acknowledged publish through', async () => {
    const stub = stubProducer();
    const guarded = guardProducer(stub, { timeoutMs: 1_000, maxInFlight: 10 });
    const publish = guarded.publish([]);
    stub.pending[0]!.resolve();
    await expect(publish).resolves.toBeUndefined();
    expect(guarded.name()).toBe('stub');
  });

  it('fails a publish Kafka does not acknowledge in time with a retriable 503', async () => {
    const stub = stubProducer();
    const guarded = guardProducer(stub, { timeoutMs: 20, maxInFlight: 10 });
    const error: unknown = await guarded.publish([]).catch((caught: unknown) => caught);
    expect(isAppError(error) && error.status === 503 && error.retriable).toBe(true);
  });

  it('refuses at once beyond maxInFlight, and accepts again once publishes settle', async () => {
    const stub = stubProducer();
    const guarded = guardProducer(stub, { timeoutMs: 10_000, maxInFlight: 2 });
    const first = guarded.publish([]);
    const second = guarded.publish([]);
    const error: unknown = await guarded.publish([]).catch((caught: unknown) => caught);
    expect(isAppError(error) && error.code === 'KAFKA_UNAVAILABLE').toBe(true);
    expect(stub.pending).toHaveLength(2);
    stub.pending[0]!.resolve();
    stub.pending[1]!.reject(new Error('broker gone'));
    await first;
    await expect(second).rejects.toThrow('broker gone');
    const third = guarded.publish([]);
    stub.pending[2]!.resolve();
    await expect(third).resolves.toBeUndefined();
  });
});
