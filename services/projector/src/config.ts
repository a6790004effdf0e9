import Type from 'typebox';
import { CommonConfig } from '@herald/config';

export const ProjectorConfig = Type.Object({
  ...CommonConfig.properties,
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
});
