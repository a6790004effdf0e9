import Type from 'typebox';
import { CommonConfig } from '@herald/config';

export const CliConfig = Type.Object({ ...CommonConfig.properties });
