import Type from 'typebox';
import { CommonConfig } from '@herald/config';

export const CliConfig = Type.Object({
  ...CommonConfig.properties,
  // The CLI's own logs (kafkajs, progress) go to stderr; keep them quiet unless asked.
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'warn', description: "pino log level of the CLI's own logs (kafkajs, progress), written to stderr" }),
  HERALD_SECRET_KEY: Type.Optional(Type.String({ description: 'encrypts provider credentials at rest; `herald providers` needs it (local mode: read from .herald/secret.key when unset)' })),
  HERALD_STATE_DIR: Type.Optional(Type.String({ minLength: 1, description: "local mode's state directory, where `npm start` keeps secret.key and the fake providers' keys (default: .herald in the repository)" })),
});
