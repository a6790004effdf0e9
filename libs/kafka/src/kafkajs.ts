import { createRequire } from 'node:module';
import type * as KafkaJS from 'kafkajs';
import { installKafkajsCodec, type ModuleRequire } from './kafkajs-codec.ts';

/**
 * kafkajs, loaded with the faster record codec in place (kafkajs-codec.ts).
 * libs/kafka takes kafkajs' values from here, never from 'kafkajs' itself
 * (types may come from there: they load nothing), so this module's body is
 * what loads kafkajs in a Herald process, and the codec's modules are in
 * Node's module cache before kafkajs' own modules require them.
 */
const require = createRequire(import.meta.url) as ModuleRequire;

/** Whether this process encodes and decodes records with the faster codec (false when something loaded kafkajs earlier). */
export const fasterCodecInstalled = installKafkajsCodec(require);

const kafkajs = require('kafkajs') as typeof KafkaJS;

export const { Kafka, logLevel, Partitioners, AssignerProtocol, ConfigResourceTypes } = kafkajs;
