import { afterEach, describe, expect, it } from 'vitest';
import { fixKafkajsIdleLoop, kafkajsRequestQueue, scheduleCheckPendingRequests } from './request-queue-fix.ts';

type Queue = {
  pending: unknown[];
  inflight: Map<number, unknown>;
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  maybeThrottle(ms: number): void;
  push(request: unknown): void;
  destroy(): void;
};

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, namespace: () => silent };

/** kafkajs' own RequestQueue (the one its connections use), fixed as createKafka fixes it. */
function newQueue(): Queue {
  fixKafkajsIdleLoop();
  const RequestQueue = kafkajsRequestQueue() as unknown as new (options: object) => Queue;
  return new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:1', logger: silent, isConnected: () => true });
}

const queues: Queue[] = [];
afterEach(() => {
  for (const queue of queues.splice(0)) queue.destroy();
});

describe('fixKafkajsIdleLoop', () => {
  it('arms no timer for an idle, unthrottled queue (kafkajs 2.2.4 re-armed a 1 ms one for ever)', () => {
    const queue = newQueue();
    queues.push(queue);
    queue.checkPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('still re-checks a throttled queue when its throttle ends, and a queue holding requests', () => {
    const throttled = newQueue();
    queues.push(throttled);
    throttled.maybeThrottle(5_000);
    throttled.checkPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();

    const busy = newQueue();
    queues.push(busy);
    const sent: number[] = [];
    const request = (correlationId: number) => ({ entry: { correlationId, apiKey: 1, apiName: 'Fetch', apiVersion: 11 }, expectResponse: true, sendRequest: () => sent.push(correlationId) });
    busy.push(request(1));
    busy.push(request(2)); // over maxInFlightRequests: queued, and a check is armed
    expect(sent).toEqual([1]);
    expect(busy.pending).toHaveLength(1);
    expect(busy.throttleCheckTimeoutId).not.toBeNull();
  });

  it('is applied once per process', () => {
    fixKafkajsIdleLoop();
    const { prototype } = kafkajsRequestQueue();
    const method = Object.getOwnPropertyDescriptor(prototype, 'scheduleCheckPendingRequests')?.value as unknown;
    fixKafkajsIdleLoop();
    expect(Object.getOwnPropertyDescriptor(prototype, 'scheduleCheckPendingRequests')?.value).toBe(method);
    expect(method).toBe(scheduleCheckPendingRequests);
  });
});
