import Type from 'typebox';
import { CommonConfig, metricsSettings } from '@herald/config';

export const ProjectorConfig = Type.Object({
  ...CommonConfig.properties,
  ...metricsSettings(9101),
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
});
