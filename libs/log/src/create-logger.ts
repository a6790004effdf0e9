import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Paths that may carry device tokens, personal identifiers or credentials; pino replaces them before writing. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'previous_token',
  '*.previous_token',
  'identifier',
  '*.identifier',
  'identifier_hash',
  '*.identifier_hash',
  'identifiers',
  '*.identifiers',
  'headers["x-api-key"]',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'req.headers.authorization',
  'api_key',
  '*.api_key',
  'config.HERALD_SECRET_KEY',
  'credentials',
  '*.credentials',
];

export interface LoggerSettings {
  level: string;
  name: string;
  /** Tests and the supervisor pass their own stream; default is stdout. */
  destination?: pino.DestinationStream;
}

/** The one logger of a process; components take children of it. */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.name,
    level: settings.level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
    base: { pid: process.pid },
  };
  return settings.destination === undefined ? pino(options) : pino(options, settings.destination);
}
