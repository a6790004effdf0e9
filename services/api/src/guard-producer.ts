import type { EventProducer } from '@herald/kafka';
import { InfrastructureError } from '@herald/errors';

type Publisher = Pick<EventProducer, 'publish'>;

/**
 * The API's view of the producer: a publish Kafka has not acknowledged within
 * `timeoutMs` fails with a retriable 503 instead of holding the request (the
 * producer keeps retrying it in the background), and at most `maxInFlight`
 * publishes wait on Kafka at once: beyond that a request fails at once rather
 * than queueing behind a broker that does not answer.
 */
export function guardProducer<P extends Publisher>(producer: P, options: { timeoutMs: number; maxInFlight: number }): P {
  let inFlight = 0;
  const publish: Publisher['publish'] = (events, topic) => {
    if (inFlight >= options.maxInFlight) {
      return Promise.reject(new InfrastructureError('KAFKA_UNAVAILABLE', `${inFlight} publishes are waiting for Kafka already`));
    }
    inFlight += 1;
    const sent = producer.publish(events, topic).finally(() => {
      inFlight -= 1;
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new InfrastructureError('KAFKA_UNAVAILABLE', `Kafka did not acknowledge within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
    });
    // The late outcome of a publish that already timed out is nobody's to handle.
    sent.catch(() => undefined);
    return Promise.race([sent, expired]).finally(() => clearTimeout(timer));
  };
  return new Proxy(producer, {
    get(target, property) {
      if (property === 'publish') return publish;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
