import Type from 'typebox';
import { CommonConfig } from '@herald/config';

export const ApiConfig = Type.Object({
  ...CommonConfig.properties,
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
});
