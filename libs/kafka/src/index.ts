export * from './create-kafka.ts';
export * from './ensure-topics.ts';
export * from './event-producer.ts';
export * from './dead-letter.ts';
export * from './run-consumer.ts';
export * from './offsets.ts';
export * from './process-chunk.ts';
export * from './kafka-errors.ts';
